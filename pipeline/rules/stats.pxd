# C types for the compiled engine (see setup.py); stats.py stays the source of truth.
# None yet: compiled as it is, seat_flags (one pass over a hand's steps) runs in about half
# the time of the source.
