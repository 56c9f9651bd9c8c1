"""Running, trimming and linearising (api/mtk_sim.c): written by another part of issue 35.
A placeholder until it is merged: each call says so."""


def run(script, overrides=None, out=None):
    raise NotImplementedError("mototake.run: not merged yet (api/mtk_sim.c)")


def trim(rig="rigs/sport1000.lua", speed=None, overrides=None):
    raise NotImplementedError("mototake.trim: not merged yet (api/mtk_sim.c)")


def modes(rig="rigs/sport1000.lua", speed=None, overrides=None):
    raise NotImplementedError("mototake.modes: not merged yet (api/mtk_sim.c)")
