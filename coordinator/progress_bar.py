"""How an index build's progress looks on the command line.

On a terminal: one bar per stage, redrawn in place (at most ten times a second), drawn from the
structured report (:class:`~fourfold.api.IndexProgress`: done of total) with its message, which
carries the rate and the time left that the build measured, finished with a newline when the stage is
done or the next one starts. Anywhere else (a pipe, a log file, CI): plain lines stamped with the
time, one when a stage starts or ends and one every few seconds in between.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import time
from typing import TextIO

from fourfold.api import IndexProgress

__all__ = ["ProgressBar"]

#: Seconds between two plain lines of one stage.
LINE_INTERVAL_S = 5.0
#: Seconds between two redraws of the bar.
REDRAW_INTERVAL_S = 0.1
_BAR_WIDTH = 24


class ProgressBar:
    """``bar(update)``: draws a build's reports on ``stream`` (stderr by default)."""

    def __init__(self, stream: TextIO | None = None, tty: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.stage = ""
        self.last = float("-inf")
        self.open_line = False  # a bar is drawn and not yet ended by a newline

    def __call__(self, update: IndexProgress) -> None:
        stage, done, total, message = update.stage, update.done, update.total, update.message
        now = time.monotonic()
        finished = total > 0 and done >= total
        new_stage = stage != self.stage
        if self.tty:
            if new_stage and self.open_line:
                self.stream.write("\n")
                self.open_line = False
            if not (new_stage or finished or now - self.last >= REDRAW_INTERVAL_S):
                return
            width = self._columns()
            frac = update.fraction or 0.0
            counts = f"{frac:>4.0%} {done:,}/{total:,} "
            # a narrow terminal gets a shorter bar before the message is cut
            bar_width = max(8, min(_BAR_WIDTH, width - 1 - 20 - len(counts) - len(message)))
            filled = int(bar_width * frac)
            bar = "█" * filled + "·" * (bar_width - filled)
            line = (f"{stage:<16} [{bar}] {counts}{message}")[: max(width - 1, 20)]
            self.stream.write("\r" + line + "\x1b[K")
            self.open_line = True
            if finished:
                self.stream.write("\n")
                self.open_line = False
        elif new_stage or finished or now - self.last >= LINE_INTERVAL_S:
            stamp = time.strftime("%H:%M:%S")
            self.stream.write(f"[{stamp}] {stage}: {done:,}/{total:,} {message}\n")
        else:
            return
        self.stream.flush()
        self.last = now
        self.stage = stage

    def _columns(self) -> int:
        """The width of the terminal the stream writes to (it may change between redraws)."""
        try:
            return os.get_terminal_size(self.stream.fileno()).columns
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            return shutil.get_terminal_size((100, 24)).columns

    def close(self) -> None:
        """End a bar left open (a build that stopped half-way)."""
        if self.open_line:
            self.stream.write("\n")
            self.stream.flush()
            self.open_line = False
