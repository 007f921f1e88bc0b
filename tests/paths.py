"""Paths the tests share, wherever in ``tests/`` they live."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The repository."""
CAPTURED_FRAMES = ROOT / "tests" / "data" / "captured_frames.jsonl"
"""Frames of a real Chromium 156 session (tools/capture_frames.py)."""
