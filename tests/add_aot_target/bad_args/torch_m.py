"""A loader module for the TORCH_LOADER cases: configuring finds it; no
case gets as far as running it."""


def load():
    raise RuntimeError("not meant to run")
