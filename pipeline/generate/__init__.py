"""Synthetic hands: realistic, reproducible, optionally with one injected fault each."""

from pipeline.generate.play import GameChoice, generate_hands, play_hand

__all__ = ["GameChoice", "generate_hands", "play_hand"]
