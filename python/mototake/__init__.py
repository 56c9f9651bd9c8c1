"""mototake — takes, runs and linearisations of the mototake simulator from Python (docs/python.md).

A thin ctypes layer over bin/libmototake.so (api/mototake.h): every check, every number and every
error line is the C library's, the same as the `mototake` commands'. After `make`:

    PYTHONPATH=python /usr/bin/python3 -c 'import mototake; print(mototake.open("lap.take").channels(["speed"]))'
"""
from ._lib import Error
from .take import Take, open
from .sim import run, trim, modes

__all__ = ["Error", "Take", "open", "run", "trim", "modes", "version"]


def version():
    """(program version, git revision) of the library loaded."""
    from ._lib import lib, text
    return text(lib.mtk_version()), text(lib.mtk_git_revision())
