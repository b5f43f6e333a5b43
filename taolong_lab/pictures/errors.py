"""The errors of the picture functions."""

from __future__ import annotations

from ..errors import TaoLongError


class PictureError(TaoLongError):
    """A bad argument to a picture function. Names the argument (``.argument``) and why."""

    def __init__(self, argument: str, reason: str):
        self.argument, self.reason = argument, reason
        super().__init__(f"{argument}: {reason}")


class WriterUnavailable(RuntimeError):
    """The animation writer a file type needs (Pillow for .gif, ffmpeg for .mp4) is missing."""


__all__ = ["PictureError", "WriterUnavailable"]
