# take_layers.sh — the take file's modules include only what is below them (issue 30): the codec,
# the writer and the reader never include the replay layer or the simulator (so the reader cannot
# build a machine), and the replay side's headers do not include the umbrella that holds
# take_open/take_read (the circle takefile.c -> takepose/takechan -> replay -> takefile.c).
# Reads the sources only; no program runs.
cd "$ROOT" || exit 1
# refuse NAME REGEX FILE... : none of the files includes a header matching REGEX
refuse() {
  n=$1; re=$2; shift 2
  hits=$(grep -Hn '^#include' "$@" | grep -E -- "$re")
  if [ -z "$hits" ]; then ok "$n"; else bad "$n" "$(echo "$hits" | head -3 | tr '\n' ' ')"; fi
}
SIM='"takes/(take_replay|takefile|replay|takepose|takechan)\.h"|"sim/(vehicle|model|step)\.h"|<mujoco'
refuse layers_codec_includes_nothing_above takes/'(take_reader|take_writer|take_replay|takefile|replay|takepose|takechan)\.h|sim/vehicle' \
  takes/take_codec.c takes/take_codec.h takes/take_schema.h
refuse layers_reader_builds_no_machine "$SIM"'|"takes/take_writer\.h"' takes/take_reader.c takes/take_reader.h
refuse layers_writer_builds_no_machine "$SIM" takes/take_writer.c takes/take_writer.h
refuse layers_replay_side_no_circle '"takes/(take_replay|takefile)\.h"' takes/replay.h takes/replay.c \
  takes/takepose.h takes/takepose.c takes/takechan.h takes/takechan.c
# and the reader's object calls nothing that builds one (what the includes cannot hide)
o=build/takes/take_reader.o
if [ ! -f "$o" ] || ! have nm; then skip layers_reader_object_calls_no_rebuild "no $o or no nm"
else
  u=$(nm -u "$o" | grep -E ' (takepose_|takechan_|replay_|rig_load|track_load|veh_|mj_)' | tr -s ' ' | tr '\n' ' ')
  if [ -z "$u" ]; then ok layers_reader_object_calls_no_rebuild; else bad layers_reader_object_calls_no_rebuild "$u"; fi
fi
