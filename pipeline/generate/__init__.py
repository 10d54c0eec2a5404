"""Synthetic hands: realistic, reproducible, optionally with one injected fault each."""

from pipeline.generate.play import GameChoice, generate_hands, play_hand
from pipeline.generate.results import RakePolicy

__all__ = ["GameChoice", "RakePolicy", "generate_hands", "play_hand"]
