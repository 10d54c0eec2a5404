-- Croupier's DuckDB views over the lake.
--
-- Before this file runs, Croupier creates one base view per lake table (hands, seats,
-- actions, pots, awards, violations, rejects) over exactly the Parquet files that committed
-- runs list in _manifest.json. Money columns are integer minor units beside `scale`
-- (amount / 10^scale is the value); the helpers below turn them into text or numbers for
-- display. The integer columns stay the truth: sum them, then format.

CREATE OR REPLACE MACRO money_text(amount, scale) AS
    CASE
        WHEN amount IS NULL THEN NULL
        WHEN scale = 0 THEN CAST(amount AS VARCHAR)
        ELSE (CASE WHEN amount < 0 THEN '-' ELSE '' END)
             || CAST(abs(amount) // CAST(pow(10, scale) AS BIGINT) AS VARCHAR) || '.'
             || lpad(CAST(abs(amount) % CAST(pow(10, scale) AS BIGINT) AS VARCHAR), scale, '0')
    END;

-- A DOUBLE, for charts and sorting only: never add these up.
CREATE OR REPLACE MACRO money(amount, scale) AS amount / pow(10, scale);

CREATE OR REPLACE VIEW hands_money AS
SELECT site, hand_id, started_at, variant, betting, mixed, currency, status,
       money_text(small_blind, scale) AS small_blind,
       money_text(big_blind, scale) AS big_blind,
       money_text(ante, scale) AS ante,
       money_text(small_bet, scale) AS small_bet,
       money_text(big_bet, scale) AS big_bet,
       money_text(total_pot, scale) AS total_pot,
       money_text(rake, scale) AS rake,
       money_text(fees, scale) AS fees,
       money_text(added, scale) AS added,
       payouts_match
FROM hands;

CREATE OR REPLACE VIEW seats_money AS
SELECT site, hand_id, seat, player, position,
       money_text(stack_start, scale) AS stack_start,
       money_text(stack_end, scale) AS stack_end,
       money_text(invested, scale) AS invested,
       money_text(won, scale) AS won,
       money_text(won_recorded, scale) AS won_recorded,
       money_text(net, scale) AS net,
       money_text(cash_out_paid, scale) AS cash_out_paid,
       money_text(cash_out_fee, scale) AS cash_out_fee,
       high_hand, low_hand
FROM seats;

-- Hands and problems by game: the demo's query.
CREATE OR REPLACE VIEW hands_by_variant AS
SELECT variant, betting,
       count(*) AS hands,
       count(*) FILTER (WHERE status = 'ok') AS ok,
       count(*) FILTER (WHERE n_errors > 0) AS hands_with_errors,
       sum(n_errors) AS errors,  -- error violations, several in a hand counted each
       count(*) FILTER (WHERE payouts_match) AS payouts_matching
FROM hands
GROUP BY variant, betting
ORDER BY variant, betting;

CREATE OR REPLACE VIEW violations_by_code AS
SELECT code, severity, rule, count(*) AS n, count(DISTINCT (site, hand_id)) AS hands,
       min(hand_id) AS example_hand
FROM violations
GROUP BY code, severity, rule
ORDER BY n DESC, code;

-- Player statistics per player and currency (STATS.md), with the same columns as
-- `croupier stats --format csv` (every ratio as done and _opp, the aggression counts, net
-- won, bb/100, the hi/lo pot kinds) from the same definitions (pipeline/lake/stats_sql.py).
-- Only hands replayed to the end and settled count (not void, invalid or partial ones, nor
-- one whose showdown the rules could not judge: `settled` false; a lake from before that
-- column counts those); tournament chips are kept apart from cash; nets of different
-- scales are added at the finest scale of the group.
-- player_stats: written by python -m pipeline.lake.stats_sql (do not edit)
CREATE OR REPLACE VIEW player_stats AS
SELECT s.player,
       CASE WHEN h.tournament THEN h.currency || ' tournament' ELSE h.currency END AS currency,
       count(*) AS hands,
       sum(CASE WHEN s.vpip THEN 1 ELSE 0 END) AS vpip,
       sum(CASE WHEN s.vpip_opp THEN 1 ELSE 0 END) AS vpip_opp,
       sum(CASE WHEN s.pfr THEN 1 ELSE 0 END) AS pfr,
       sum(CASE WHEN s.vpip_opp THEN 1 ELSE 0 END) AS pfr_opp,
       sum(CASE WHEN s.three_bet THEN 1 ELSE 0 END) AS three_bet,
       sum(CASE WHEN s.three_bet_opp THEN 1 ELSE 0 END) AS three_bet_opp,
       sum(CASE WHEN s.fold_to_three_bet THEN 1 ELSE 0 END) AS fold_to_three_bet,
       sum(CASE WHEN s.fold_to_three_bet_opp THEN 1 ELSE 0 END) AS fold_to_three_bet_opp,
       sum(CASE WHEN s.steal THEN 1 ELSE 0 END) AS steal,
       sum(CASE WHEN s.steal_opp THEN 1 ELSE 0 END) AS steal_opp,
       sum(CASE WHEN s.cbet_flop THEN 1 ELSE 0 END) AS cbet_flop,
       sum(CASE WHEN s.cbet_flop_opp THEN 1 ELSE 0 END) AS cbet_flop_opp,
       sum(CASE WHEN s.cbet_turn THEN 1 ELSE 0 END) AS cbet_turn,
       sum(CASE WHEN s.cbet_turn_opp THEN 1 ELSE 0 END) AS cbet_turn_opp,
       sum(CASE WHEN s.cbet_river THEN 1 ELSE 0 END) AS cbet_river,
       sum(CASE WHEN s.cbet_river_opp THEN 1 ELSE 0 END) AS cbet_river_opp,
       sum(CASE WHEN s.fold_to_cbet_flop THEN 1 ELSE 0 END) AS fold_to_cbet_flop,
       sum(CASE WHEN s.fold_to_cbet_flop_opp THEN 1 ELSE 0 END) AS fold_to_cbet_flop_opp,
       sum(CASE WHEN s.fold_to_cbet_turn THEN 1 ELSE 0 END) AS fold_to_cbet_turn,
       sum(CASE WHEN s.fold_to_cbet_turn_opp THEN 1 ELSE 0 END) AS fold_to_cbet_turn_opp,
       sum(CASE WHEN s.fold_to_cbet_river THEN 1 ELSE 0 END) AS fold_to_cbet_river,
       sum(CASE WHEN s.fold_to_cbet_river_opp THEN 1 ELSE 0 END) AS fold_to_cbet_river_opp,
       sum(CASE WHEN s.saw_flop THEN 1 ELSE 0 END) AS saw_flop,
       sum(CASE WHEN TRUE THEN 1 ELSE 0 END) AS saw_flop_opp,
       sum(CASE WHEN s.went_to_showdown THEN 1 ELSE 0 END) AS wtsd,
       sum(CASE WHEN s.saw_flop THEN 1 ELSE 0 END) AS wtsd_opp,
       sum(CASE WHEN s.went_to_showdown AND sd.seat IS NOT NULL THEN 1 ELSE 0 END) AS wsd,
       sum(CASE WHEN s.went_to_showdown THEN 1 ELSE 0 END) AS wsd_opp,
       sum(CASE WHEN s.saw_flop AND s.won > 0 THEN 1 ELSE 0 END) AS wwsf,
       sum(CASE WHEN s.saw_flop THEN 1 ELSE 0 END) AS wwsf_opp,
       sum(s.postflop_aggressive) AS postflop_aggressive,
       sum(s.postflop_calls) AS postflop_calls,
       sum(s.postflop_folds) AS postflop_folds,
       CAST(sum(s.net * CAST(pow(10, 8 - h.scale) AS HUGEINT)) // CAST(pow(10, 8 - max(h.scale)) AS HUGEINT) AS BIGINT) AS net,
       max(h.scale) AS scale,
       money_text(sum(s.net * CAST(pow(10, 8 - h.scale) AS HUGEINT)) // CAST(pow(10, 8 - max(h.scale)) AS HUGEINT), max(h.scale)) AS net_won,
       round(sum(s.net / nullif(h.big_blind, 0)), 2) AS net_bb,
       round(100.0 * sum(s.net / nullif(h.big_blind, 0)) / nullif(count(*) FILTER (WHERE h.big_blind > 0), 0), 2) AS bb_per_100,
       coalesce(sum(s.pots_won) FILTER (WHERE h.hi_lo), 0) AS pots_won,
       coalesce(sum(s.scoops) FILTER (WHERE h.hi_lo), 0) AS scoops,
       coalesce(sum(s.high_only) FILTER (WHERE h.hi_lo), 0) AS high_only,
       coalesce(sum(s.low_only) FILTER (WHERE h.hi_lo), 0) AS low_only,
       coalesce(sum(s.quartered) FILTER (WHERE h.hi_lo), 0) AS quartered
FROM seats s JOIN hands h USING (site, hand_id) LEFT JOIN (SELECT DISTINCT a.site, a.hand_id, a.seat FROM awards a JOIN pots p ON p.site = a.site AND p.hand_id = a.hand_id AND p.pot_index = a.pot_index AND coalesce(p.runout, a.runout) = a.runout WHERE len(p.eligible_seats) > 1) sd ON sd.site = s.site AND sd.hand_id = s.hand_id AND sd.seat = s.seat LEFT JOIN (SELECT site, hand_id, player FROM seats SEMI JOIN (SELECT site, hand_id FROM violations WHERE code = 'duplicate-player') USING (site, hand_id) GROUP BY site, hand_id, player HAVING count(*) > 1) twice ON twice.site = s.site AND twice.hand_id = s.hand_id AND twice.player = s.player
WHERE h.status IN ('ok', 'violations') AND h.settled IS NOT FALSE AND twice.player IS NULL
GROUP BY ALL;
-- player_stats: end
