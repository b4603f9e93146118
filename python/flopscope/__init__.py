"""flopscope's Python companion.

`flopscope trace -- python3 infer.py` loads it into the program unchanged; a program needs to import it only
to mark its own iterations, e.g. one generation step per call:

    import flopscope
    for token in range(n):
        flopscope.step()
        ...

Outside `flopscope trace`, step() does nothing.
"""


def step():
    """Marks the start of one iteration (for programs whose loop is not one call of the model)."""
    from flopscope import _companion

    _companion.step()
