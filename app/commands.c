/* commands.c — the command table of `mototake` and its dispatcher.
 *
 * The table below is the whole command surface. Each entry refers to its function weakly:
 * a module that is not linked in leaves a NULL, and the command is not offered. Exit status
 * is the command's: 0 success, 2 bad input, 1 internal failure. */
#include <stdio.h>
#include <string.h>

#include "app/commands.h"
#include "base/cli.h"

typedef int (*cmd_fn)(int argc, char** argv);

#define CMD(f) extern int f(int argc, char** argv) __attribute__((weak));
CMD(cmd_track_info)
CMD(cmd_track_plan)
CMD(cmd_lapsim)
CMD(cmd_tyre)
CMD(cmd_plot_tyre)
CMD(cmd_plot_engine)
CMD(cmd_engine)
CMD(cmd_rig_info)
CMD(cmd_rig_draw)
CMD(cmd_trim)
CMD(cmd_modes)
CMD(cmd_bode)
CMD(cmd_spectrum)
CMD(cmd_run)
CMD(cmd_ride)
CMD(cmd_take_info)
CMD(cmd_take_verify)
CMD(cmd_take_channels)
CMD(cmd_take_cut)
CMD(cmd_take_band)
CMD(cmd_take_shifts)
CMD(cmd_export)
CMD(cmd_export_demo)
CMD(cmd_render)
CMD(cmd_slip)
CMD(cmd_blender_addon)
CMD(cmd_sweep)
CMD(cmd_sweep_index)
CMD(cmd_sweep_report)
CMD(cmd_serve)
#undef CMD

typedef struct command {
  const char* name;      /* one or two words */
  cmd_fn fn;
  const char* summary;
  const char* usage;     /* full help text */
} command;

static int cmd_version(int argc, char** argv);
static int cmd_help(int argc, char** argv);

static const command* commands(size_t* n);

static const command TABLE[] = {
  {"help", cmd_help, "show help for mototake or one command",
   "usage: mototake help [COMMAND]\n\n"
   "Without COMMAND, list the commands. With it (e.g. `mototake help track plan`), print\n"
   "that command's usage. Every command also accepts --help.\n"},
  {"version", cmd_version, "print version and build information",
   "usage: mototake version\n\nPrint the program version, git revision and library versions.\n"},
  {"track info", NULL, "length, closure, bounds, elevation and tightest radius of a track",
   "usage: mototake track info TRACK [--json]\n\n"
   "TRACK is a track file (sim/tracks/NAME.lua) or the name of a shipped track (laguna_seca,\n"
   "straight, skidpad50, skidpad100, figure8, test_loop).\n\n"
   "  --json    machine-readable output\n\n"
   "Prints the centre-line length, the closure error of a closed track (position gap and\n"
   "heading mismatch), the bounding box, the lowest and highest point, the tightest radius\n"
   "and the segment count.\n"},
  {"track plan", NULL, "draw a track's plan view (PNG)",
   "usage: mototake track plan TRACK -o plan.png [--size WxH]\n\n"
   "  -o FILE       output PNG (required)\n"
   "  --size WxH    image size in pixels (default 1600x1200)\n\n"
   "Draws track edges and centre line, elevation by colour with a legend, the start/finish\n"
   "line, distance ticks every 100 m with labels, a scale bar, a north arrow and a title.\n"},
  {"lapsim", NULL, "the machine's minimum lap time on a track's line (quasi-steady-state lap simulation)",
   "usage: mototake lapsim RIG TRACK [--line racing|centre] [--margin M] [--grip G] [--set KEY=VALUE]... [--json]\n"
   "                       [--quiet]\n\n"
   "  --line L      the line a take's rider would ride: racing (minimum curvature, default) or centre\n"
   "  --margin M    the racing line keeps M metres from the edges (default 2.5, as a take script)\n"
   "  --grip G      the tyres' friction used, as a share of their peak (default 1: the limit)\n"
   "  --set K=V     override a rig parameter (as `mototake run --set`)\n"
   "  --json        machine-readable output\n"
   "  --quiet       no progress bar (one is drawn on stderr when it is a terminal; docs/progress.md)\n\n"
   "Prints `minimum lap M:SS.sss`: the lap time of a quasi-steady-state lap simulation\n"
   "(sim/lapsim.h) on the line, from the rig's own parameters: cornering at the tyres' lateral\n"
   "peak with the load factor over crests and the air's lift, drive within the friction ellipse,\n"
   "the engine at full throttle in the best gear up to the rev limit and the wheelie limit,\n"
   "braking within the lesser of grip and the stoppie limit, drag and grade. Then the machine's\n"
   "limits (lean at the tyres' lateral peak, braking, wheelie), the same limits as the machine has\n"
   "them on its springs at 54, 108, 162 and 216 km/h (where the rear lifts in a slow front-brake\n"
   "ramp, where its steady turn saturates a tyre; about 0.2 s to measure), the same lap cornering\n"
   "within the machine's own steady turn (the most lateral acceleration its steady turn holds at\n"
   "each speed, 36-252 km/h, where the point mass has mu_y·n·g; about 0.3 s) and the lap's peaks.\n"
   "The line's superelevation is not in it (docs/lapsim.md). TRACK must be closed (an open track\n"
   "has no lap); `minimum lap` itself rides the rigid limits and the point mass's cornering.\n"},
  {"tyre", NULL, "tyre forces at one operating point",
   "usage: mototake tyre RIG --wheel front|rear --fz N --kappa K --alpha RAD --camber RAD [--json]\n\n"
   "RIG is a rig file or a Lua table of tyre parameters. Prints Fx, Fy, Mz, the pneumatic\n"
   "trail and the relaxation lengths at the given load, slip ratio, slip angle and camber.\n"
   "  --speed V     forward speed for the relaxation lengths (default 20 m/s)\n"
   "  --grip S      scale the peak friction (pDx1, pDy1, qDz*) by S (wet road: ~0.6)\n"},
  {"plot tyre", NULL, "plot tyre force curves (PNG)",
   "usage: mototake plot tyre RIG [--wheel front|rear] [--quantity fx|fy|mz|ellipse] -o f.png [--size WxH]\n"
   "                      [--set KEY=VALUE ...]\n\n"
   "Families of curves: Fx vs slip ratio, Fy vs slip angle, Mz vs slip angle at several loads\n"
   "and cambers, or the friction ellipse under combined slip. Both tyres side by side, the front\n"
   "on the left (each half titled with its wheel; --size is the whole figure, default 3200x1200,\n"
   "2000x700 for one --quantity); --wheel front or rear: that tyre alone (1600x1200, 1000x700).\n"
   "--set: RIG is a rig file, its tyres with the overrides applied (keys as `mototake rig info\n"
   "RIG --params` lists them).\n"},
  {"plot engine", NULL, "plot engine torque, power and manifold pressure (PNG)",
   "usage: mototake plot engine RIG -o e.png [--size WxH] [--kind curves|gears|chain] [--set KEY=VALUE ...]\n\n"
   "RIG is a rig file, a Lua file returning {engine = {...}, drivetrain = {...}}, or the name of a\n"
   "shipped one (engine_gsxr1000). See docs/engine.md and docs/drivetrain.md.\n\n"
   "  -o FILE            output PNG (required)\n"
   "  --size WxH         image size in pixels (default 1600x1100, gears 1600x800, chain 1600x900)\n"
   "  --kind curves      brake torque and power against engine speed at 0-100 % throttle, the\n"
   "                     manifold pressure and the efficiency maps; WOT peaks annotated (default)\n"
   "  --kind gears       rear-wheel thrust and engine speed against road speed in every gear\n"
   "  --kind chain       side view of the chain runs, swingarm and squat line; anti-squat ratio\n"
   "  --wheel-radius R   rear wheel radius for gears/chain (default: the rear axle height)\n"
   "  --pivot X,Z        swingarm pivot for chain (default SEL 2004: 0.549,0.3608 m)\n"
   "  --cog X,Z          centre of mass for chain (default SEL 2004 with rider: 0.6614,0.5452 m)\n"
   "  --wheelbase W      wheelbase for chain (default 1.41 m)\n"
   "  --set KEY=VALUE    RIG is a rig file: its engine and drivetrain with the override applied\n"},
  {"engine", NULL, "engine output at one operating point",
   "usage: mototake engine RIG --rpm R --throttle T [--json]\n"
   "       mototake engine RIG --bench N\n\n"
   "RIG is a rig file, a Lua file returning {engine = {...}, drivetrain = {...}}, or the name of a\n"
   "shipped one (engine_gsxr1000). Prints the steady manifold pressure, air and fuel flow,\n"
   "volumetric and thermal efficiency, indicated torque, pumping and friction losses, brake torque\n"
   "and power at engine speed R (rpm) and throttle T (0..1), the idle governor included.\n\n"
   "  --rpm R      engine speed in rpm\n"
   "  --throttle T throttle demand, 0 (shut) to 1 (wide open)\n"
   "  --json       machine-readable output (SI units)\n"
   "  --bench N    time N evaluations and print evaluations per second\n"},
  {"rig info", NULL, "mass, centre of gravity and geometry of a rig",
   "usage: mototake rig info RIG [--json] [--params] [--set KEY=VALUE ...]\n\n"
   "  --params     list every numeric parameter (presets and defaults included) as the\n"
   "               KEY that --set and a take's overrides accept, its value and its unit\n"
   "  --json       machine-readable output\n"},
  {"rig draw", NULL, "side elevation of a rig (PNG)",
   "usage: mototake rig draw RIG -o side.png [--size WxH] [--set KEY=VALUE ...]\n"},
  {"trim", NULL, "steady state of a rig at a speed and lean",
   "usage: mototake trim RIG --speed V [--lean DEG | --lean FROM:TO:STEP | --radius R | --track T --station S]\n"
   "                    [--gear G] [--json] [--set KEY=VALUE ...]\n\n"
   "The steady state (all accelerations zero but the centripetal one) at speed V (m/s): pitch, sag,\n"
   "steer angle and torque, throttle, gear, tyre loads and slips. A turn is reached by continuation\n"
   "from upright running, and every point is checked (slip angles below 6 deg, both tyres loaded,\n"
   "throttle within 0..1, residual below 1e-5); when no steady turn exists, one line says how far\n"
   "it got and what limits it, and the exit status is 2. At walking pace in first gear, where the\n"
   "idle governor drives harder than a shut throttle holds, the clutch slips: throttle 0, and the\n"
   "report gives the clutch's engagement and slip (rpm). See docs/vehicle.md.\n\n"
   "  --lean DEG           lean angle (ISO roll, positive right); the yaw rate is solved\n"
   "  --lean FROM:TO:STEP  a sweep of leans, one table row each; stops at the first that fails\n"
   "  --radius R           turn radius in m (positive left); the lean is solved\n"
   "  --track T --station S  on track T at station S: the yaw rate from its curvature\n"
   "  --gear G             0 neutral, 1..6 (default: the highest gear above 5500 rpm)\n"
   "  --json               one JSON object per point\n"},
  {"modes", NULL, "vibration modes of a rig in steady states (linearised), named; root locus; mode animations",
   "usage: mototake modes RIG --speed V [--lean DEG | --ay G] [--max-hz F] [--all] [--json] [--loop open|closed] [--abcd FILE]\n"
   "                      [--set KEY=VALUE ...]\n"
   "       mototake modes RIG --speeds FROM:TO:STEP [--lean DEG | --ay G] [-o locus.png] [--json] ...\n"
   "       mototake modes RIG --speed V --ay FROM:TO:STEP | --lean FROM:TO:STEP [-o locus.png] [--json] ...\n"
   "       mototake modes RIG --speed V [--lean DEG | --ay G] --animate weave|wobble|capsize|chatter -o OUT\n\n"
   "Trim the rig at each point (solved, not waited for: sim/trim.h), linearise one step about it\n"
   "(sim/linear.h) and list its modes up to F Hz (default 60): the continuous root (real part 1/s),\n"
   "frequency, damping ratio (negative: unstable). Modes are named weave, wobble, capsize and\n"
   "chatter by their shapes (which motions dominate: roll/yaw/sideslip, steer, fork twist and bend)\n"
   "and, over a series, by continuity from point to point (sim/modes.h); the rest are \"other\".\n"
   "One point (--speed): every mode with the share of steer, twist, fork bend, rider lean, fork and\n"
   "swingarm in its joint velocities, of roll and yaw, and its name. Real roots are listed from\n"
   "-50 1/s up; zeros (|re| < 1e-4: position and heading) are left out.\n"
   "A series: straight running or a steady lean/turn over speeds (--speeds), or steady turns at one\n"
   "speed over lean or lateral acceleration (the memo's two series): a table of the named modes;\n"
   "a point that cannot be trimmed is named on stderr and skipped (exit 2 only if none can be).\n"
   "  --speed V / --speeds FROM:TO:STEP  speed(s), in --unit (mps, the default, or kmh)\n"
   "  --lean DEG | --lean FROM:TO:STEP    ISO roll (positive right), the yaw rate solved\n"
   "  --ay G | --ay FROM:TO:STEP          lateral acceleration in g (positive: a left turn), the lean solved\n"
   "  -o FILE.png     the root locus (coloured by the series variable, named modes labelled,\n"
   "                  re = 0 marked) beside frequency and damping of the named modes\n"
   "  --json          per point: speed, lean, ay, each mode's name, re, im, hz, zeta, shares\n"
   "  --all           every mode of every point with its motion shares (what the names rest on)\n"
   "  --abcd FILE     one point: also its continuous model A, B, C, D (all states; inputs\n"
   "                  steer_torque, rider_lean_torque, throttle, front_brake, rear_brake; outputs\n"
   "                  speed, lean, roll_rate, yaw_rate, steer_angle, steer_rate) as FILE.json or\n"
   "                  FILE.m, as a take's linearise event writes them (docs/linear.md)\n"   "  --loop open     (the default) the machine alone, its inputs held: its own modes, as the memo\n"
   "                  and the stability literature give them\n"
   "  --loop closed   the machine with the rider holding a straight line (the rider's states and\n"
   "                  gains in the step map, docs/linear.md): the modes a ride shows; straight only\n"
   "  --quiet         no progress on stderr (a series' point count, an .mp4's frame bar; shown\n"
   "                  when stderr is a terminal, the frame bar also with MOTOTAKE_PROGRESS set)\n"
   "  --animate NAME  the named mode's shape as a looping motion of the whole rig (app/modes_anim.h):\n"
   "                  -o .glb/.gltf through the exporter, -o .mp4 side, rear and top views;\n"
   "                  --cycles N (3), --amplitude DEG (peak steer or roll; default 4 weave and\n"
   "                  capsize, 3 wobble, 1.5 chatter), --fps F (30); faster than 1.5 s a cycle is\n"
   "                  slowed to 1.5 s. See docs/wobble.md.\n"},
  {"bode", NULL, "frequency response of a rig in a steady state (linearised)",
   "usage: mototake bode RIG --speed V [--lean DEG] --input NAME --output NAME\n"
   "       mototake bode RIG --speed V [--lean DEG] --wheelbase-delay [--input road] --output NAME\n"
   "       (either) [--from HZ] [--to HZ] [--points N] [-o bode.png] [--json] [--set KEY=VALUE ...]\n\n"
   "Trim the rig at speed V (m/s) and lean DEG (ISO roll, positive right; default 0), linearise it\n"
   "(continuous time, all states: docs/linear.md) and give the gain and phase of output NAME (a take\n"
   "channel, e.g. steer_angle, roll_rate, or a state, e.g. qd.steer) to input NAME (steer_torque,\n"
   "throttle, front_brake, rear_brake, road_front, road_rear, param:KEY, ...) from --from to --to Hz\n"
   "(default 1-100, 500 points, log spaced): the resonances on the terminal, -o a Bode plot (PNG),\n"
   "--json every point. --wheelbase-delay: the input is the road under both tyres, the rear seeing\n"
   "the front's profile a wheelbase later (the memo's road-to-steer analysis): --input is then road,\n"
   "and may be left out.\n"},
  {"spectrum", NULL, "amplitude spectrum of a take's channel and its peaks (FFT)",
   "usage: mototake spectrum TAKE --channel NAME [--from S --to S] [-o spectrum.png] [--json] [--quiet]\n"
   "                [--peaks N] [--min-hz F] [--max-hz F] [--pad K]\n\n"
   "The memo's first method, spectral analysis of a time history: the channel (names as in\n"
   "`mototake take info`) between --from and --to seconds (default: the whole take), its mean and\n"
   "linear trend removed, a Hann window, zero-padded K times (default 8) to a power of two, FFTW.\n"
   "The amplitude spectrum is scaled so a sine of amplitude A peaks at A. Peaks: local maxima at\n"
   "least 5 % of the highest, each refined by a parabola through the log amplitudes of three bins,\n"
   "highest first (default 5), between --min-hz (default 2/T, T the record length) and --max-hz\n"
   "(default 60 Hz or the Nyquist frequency). See docs/wobble.md.\n"
   "  -o FILE.png   plot the spectrum up to --max-hz with the peaks marked\n"
   "  --json        the peaks as JSON\n"
   "  --quiet       no progress bar (else one on stderr when it is a terminal)\n"},
  {"run", NULL, "ride a take script and record it",
   "usage: mototake run SCRIPT.lua -o out.take [--set KEY=VALUE ...] [--sets FILE.json] [--quiet] [--dry-run]\n"
   "                    [--store-channels]\n\n"
   "Ride the take script (takes/NAME.lua, see docs/takes.md) and record every step into the take\n"
   "file. Starts from a solved steady state at the script's start. On a terminal a progress bar\n"
   "shows simulated time, real-time factor and ETA. A `linearise` event writes NAME.m, NAME.json\n"
   "and NAME.mat (MATLAB level 5: A, B, C, D, names, operating point, eigenvalues) beside the\n"
   "take (docs/linear.md).\n"
   "  -o FILE          the take to write (SQLite; written in place, marked incomplete until done)\n"
   "  --set KEY=VALUE  override a rig parameter (after the script's own overrides)\n"
   "  --sets FILE      the overrides of an override set ({\"sets\": [\"KEY=VALUE\", ...]}, as the web\n"
   "                   pages' \"save as\" writes), before any --set\n"
   "  --quiet          no progress bar, no summary\n"
   "  --dry-run        ride without recording: no take and no file at all is written (a script's\n"
   "                   `linearise` events still linearise, so their errors show, but write no\n"
   "                   M-file, JSON or .mat)\n"
   "  --store-channels also store every channel as sampled (the take then reads without mototake;\n"
   "                   by default a take stores the state, inputs and context, and readers rebuild\n"
   "                   the channels from them: docs/takefile.md). Recording then costs more.\n"},
  {"ride", NULL, "ride the machine by hand in a window (mouse rubber band) and record the take",
   "usage: mototake ride -o OUT.take [--rig R] [--track T] [--start STATION] [--speed V] [--gear G]\n"
   "                     [--set KEY=VALUE ...] [--assist 0..1] [--ghost OTHER.take] [--size WxH]\n"
   "                     [--snapshot PNG] [--bench SECONDS] [--events FILE --duration S [--quiet]]\n\n"
   "Ride by hand in an SDL2 window (docs/ride.md): the machine starts upright at speed V (m/s, default\n"
   "25) at STATION (m, default 0) of track T (default laguna_seca) with rig R (default sport1000).\n"
   "Press the middle button to put your hands on the controls; the dotted rubber band from there to\n"
   "the pointer sets throttle (up) or brake (down, red), growing as the square of its length, full at\n"
   "200 px (controls.throttle_px, brake_px, throttle_curve, brake_curve); its horizontal length is\n"
   "a bar torque: pointer right pushes the right grip and the machine leans right, with any --assist\n"
   "(controls.* in the rig, --set controls.sens_sum=1 for the manual's printed sum). Left/right\n"
   "buttons shift down/up; 1/2/3 chase/plan/side view; Space pause; R restart from the start's trim,\n"
   "or, off the track or fallen (a banner says so), back on the track at the last point on it;\n"
   "H help; F12 snapshot; Q, Esc, closing the window, SIGINT or SIGTERM end the take (complete).\n"
   "The take records every input event with its step: `mototake take verify` re-rides it.\n"
   "  -o FILE          the take to write\n"
   "  --gear G         the start's gear (default: the trim's choice)\n"
   "  --set KEY=VALUE  override a rig parameter (controls.sens_const, ... too)\n"
   "  --assist A       blend the virtual rider's roll loop into the bar torque (0 off .. 1): the\n"
   "                   band then also asks for a lean (pointer right: lean right)\n"
   "  --ghost TAKE     draw another take translucent, with the live time gap\n"
   "  --size WxH       window size (default 1024x640)\n"
   "  --snapshot PNG   where F12 writes the window's picture (default ride.png)\n"
   "  --bench S        hands on at the centre at once, end after S s of wall time (make bench)\n"
   "  --events FILE    no window: ride a JSON list of [step, EVENT, a, b], EVENT one of \"grab\",\n"
   "                   \"move\", \"shift\", \"axis\", \"restart\", \"recover\" (a: the station)\n"
   "  --duration S     with --events: seconds to ride (default 10)\n"
   "  --quiet          with --events: no progress bar (none is drawn in a pipe either)\n"},
  {"take info", NULL, "describe a take file",
   "usage: mototake take info TAKE [--json]\n\n"
   "Status (complete or not, and why it ended), steps and duration, program, platform, rig and\n"
   "track, overrides, file size and MB per simulated minute, bodies, sources, channels with\n"
   "units, events. See docs/takefile.md.\n"},
  {"take verify", NULL, "re-simulate a take and compare bit for bit",
   "usage: mototake take verify TAKE [--quiet]\n\n"
   "Rebuild the rig and the track from the sources inside the take, start from its first\n"
   "state and re-simulate with its recorded inputs, comparing every step bit for bit. Prints\n"
   "'bit-exact' (exit 0) or the first diverging step and state value (exit 1).\n"
   "A progress bar on stderr when it is a terminal (--quiet: none; docs/progress.md).\n"},
  {"take channels", NULL, "export a take's channels as CSV or a MATLAB .mat",
   "usage: mototake take channels TAKE -o x.csv|x.mat|- [--rate HZ] [--channels a,b] [--from S --to S]\n"
   "                              [--simhub] [--quiet]\n\n"
   "CSV (RFC 4180: names with commas, quotes or newlines are quoted) with a header row of\n"
   "channel names and a units row; -o - writes the CSV to standard output. -o NAME.mat: a MATLAB level-5 file (MATLAB's -v7, compressed;\n"
   "written by matio; GNU Octave and SciPy load it) of the same rows as doubles: a column vector\n"
   "`time`, one per channel (the name made a MATLAB name: other characters become _, an x goes\n"
   "before a name not starting with a letter or a keyword; two channels that become the same name\n"
   "are refused), structs `units`, `names` (MATLAB name -> the take's name) and `meta` (the\n"
   "take's metadata); see docs/takes.md.\n"
   "--rate resamples by linear interpolation at exact multiples of 1/HZ, at most the recorded\n"
   "rate (default: every step). --channels picks channels\n"
   "(names as in `mototake take info`; the list is one CSV record, so a name with a comma is\n"
   "given in double quotes as the CSV writes it); --from/--to pick a time range in seconds.\n"
   "--simhub appends the motion under SimHub's names (SpeedKmh, AccelerationSurge/Sway/Heave,\n"
   "GlobalAccelerationG, Orientation{Yaw,Pitch,Roll}{,Velocity,Acceleration}, Longitudinal/\n"
   "LateralVelocity of the CG, SteeringAngle in the ground plane); docs/slip.md defines each.\n"
   "A progress bar on stderr when it is a terminal (--quiet: none; docs/progress.md).\n"},
  {"take cut", NULL, "cut a time range out of a take",
   "usage: mototake take cut TAKE --from S --to S -o part.take\n\n"
   "A new self-contained take of that range (sources, schema and metadata copied, events\n"
   "shifted); it verifies on its own.\n"},
  {"take band", NULL, "wobble-band steering motion of a take",
   "usage: mototake take band TAKE [--lo HZ] [--hi HZ] [--limit DEG] [--from S] [--quiet]\n\n"
   "The steer angle at full rate, mean removed, band-passed to LO..HI Hz (default 6..12) by an\n"
   "FFT of the whole take; the RMS of that band in 1 s windows every 0.5 s. Prints the worst\n"
   "window and the share of windows above LIMIT degrees (default 0.5). --from S: only the\n"
   "windows that start at or after S seconds (what is left of a disturbance). See\n"
   "docs/drivetrain.md.\n"
   "A progress bar on stderr when it is a terminal (--quiet: none; docs/progress.md).\n"},
  {"take shifts", NULL, "what every gear change of a take did",
   "usage: mototake take shifts TAKE [--quiet]\n\n"
   "One line per gear change: time, gears, rpm before and the rev-match target (rpm x new/old\n"
   "ratio), how long the clutch and ignition choreography lasted, rpm at its end and the rpm\n"
   "the new gear asked for then, and over the 0.5 s after: highest rpm, least front load, least\n"
   "rear slip ratio, highest chain force; the largest change of 50 ms-mean ax from 0.1 s before\n"
   "to 0.5 s after (ax_g) and over the 0.6 s before that (ax0_g); the 6-12 Hz steer RMS over\n"
   "the 0.5 s before (band0) and after (band1). See docs/drivetrain.md, Gear changes.\n"
   "A progress bar on stderr when it is a terminal (--quiet: none; docs/progress.md).\n"},
  {"export", NULL, "export a take's motion as glTF/GLB, FBX or (the rider's skeleton) BVH",
   "usage: mototake export TAKE -o out.glb|out.gltf|out.fbx|out.bvh [--fps N] [--from S --to S] [--reduce TOL] [--up z|y]\n"
   "                       [--no-track] [--camera] [--armature] [--name NAME] [--channels a,b,...]\n\n"
   "Every body's pose (frame, rider, steering, fork, wheels, swingarm, bell crank, pull rod,\n"
   "shock body and rod) resampled at exact frame times into keyframes, with simple meshes and\n"
   "the road, through Assimp, and the take's metadata, events, channels and camera rigs (glTF\n"
   "extras; FBX user properties: the metadata). The first key is frame 1 in Blender in both\n"
   "formats. `mototake blender-addon` writes the Blender add-on that reads it all; see\n"
   "docs/export.md.\n"
   "  -o FILE        .glb (binary glTF 2.0), .gltf (+ .bin) or .fbx; .bvh: the rider's skeleton\n"
   "                 alone (Hips root, Mixamo bone names) as BVH, metres, y up, at --fps over\n"
   "                 --from/--to (Blender's stock importer reads it at true size, scale 1)\n"
   "  --fps N        key rate, a whole number > 0 (default 30; 29.97 is refused: Blender would\n"
   "                 drift); wheels get sub-frame keys when they turn more than 90 degrees\n"
   "                 between frames\n"
   "  --from/--to S  the time range in seconds (default: the whole take)\n"
   "  --reduce TOL   drop keys that linear interpolation reproduces within TOL metres (and\n"
   "                 TOL/0.3 rad); keys before/after are reported\n"
   "  --up y|z       default: the format's own, y for glTF, z for FBX (declared in the file), so\n"
   "                 Blender shows both with the same object axes; y or z forces one\n"
   "  --no-track     leave the road out\n"
   "  --camera       add an animated chase-camera frame (an empty to parent a camera to)\n"
   "  --armature     the bodies as one armature (a bone per body, rest pose at the first frame)\n"
   "                 with all their geometry in one mesh skinned rigidly to it, and the rider as\n"
   "                 a humanoid skeleton (Hips under rider_pelvis, Mixamo names, hands on the\n"
   "                 grips, feet on the pegs) in its rest pose, skinned smoothly by one character\n"
   "                 mesh that replaces the rider's rigid parts\n"
   "  --name NAME    the take's name: the root node, and NAME_ before every other name\n"
   "                 (default: the take file's name without .take)\n"
   "  --channels L   the channels sampled at every frame (default speed,rpm,throttle,\n"
   "                 front_brake,rear_brake,gear,lean,steer_torque and the four slips)\n"},
  {"render", NULL, "render a take to an MP4 video or PNG frames (plan, side, rear, chase views, HUD)",
   "usage: mototake render TAKE -o out.mp4|frames/%05d.png|still.png [--view plan|track|side|rear|chase|grid]\n"
   "                       [--grid V,V,V,V] [--fps N] [--size WxH] [--from S --to E | --at T] [--speed X]\n"
   "                       [--hud on|off] [--span M] [--camera NAME] [--compare OTHER.take]\n"
   "                       [--plot CH,CH,...] [--quiet] [--engine cairo|blender [--samples N]]\n"
   "                       [--captions FILE] [--overlays bars,forces|all] [--threads N]\n"
   "       mototake render --lesson NAME|list [-o NAME.mp4] [--size WxH] [--preview S] [--threads N] [--quiet]\n\n"
   "Draws the take offline and deterministically (docs/render.md).\n"
   "  -o FILE          .mp4: H.264 (libx264, yuv420p, constant rate, faststart); a .png name with one\n"
   "                   %d (e.g. frames/%05d.png): one 8-bit RGB PNG per frame, numbered from 0;\n"
   "                   a plain .png: a single frame (with --at, or a range one frame long)\n"
   "  --view V         plan (following the machine), track (plan of the whole track), side, rear,\n"
   "                   chase (perspective, cameras in rigs/cameras.lua) or grid (default side)\n"
   "  --grid V,V,V,V   the 2x2 grid's views, left to right, top to bottom\n"
   "  --fps N          frames per second of output, 0 < N <= 240 (default 30)\n"
   "  --size WxH       64..8192 each (default 1280x720); an MP4 needs both even\n"
   "  --from S --to E  take seconds; frames at S, S + X/fps, ... before E (default the whole take);\n"
   "                   E at or up to one step past the take's end is its end (a 12 s take at 1 ms\n"
   "                   ends at 11.999 s: --to 12 is the end); further past is refused\n"
   "  --at T           one frame at take time T (the same rule at the end)\n"
   "  --speed X        playback speed 0.25..4 (0.25: four times slower; default 1)\n"
   "  --hud on|off     instruments and the timeline strip (default on)\n"
   "  --span M         plan view: metres across the view (default 120)\n"
   "  --camera NAME    chase view camera (chase, trackside, onboard)\n"
   "  --compare TAKE   draw a second take as a ghost in the same views (plan: with the time gap)\n"
   "  --plot CH,...    the timeline's channels, up to 6 (default speed,lean,throttle,front_brake,\n"
   "                   steer_torque); `mototake take info TAKE` lists a take's channels\n"
   "  --captions FILE  timed titles, lower thirds, subtitles and callouts (a Lua list; docs/render.md)\n"
   "  --overlays L     bars: the bar push and steer angle; forces: tyre forces against the\n"
   "                   friction limit; all (Cairo views only)\n"
   "  --quiet          no progress bar and no summary line (the bar, frames done, frames/s and ETA,\n"
   "                   goes to stderr when it is a terminal or MOTOTAKE_PROGRESS is set)\n"
   "  --threads N      Cairo views: frames drawn by N threads at once, 1..8 (default one per three\n"
   "                   cores, at least 1), so that drawing keeps up with an encoder on many cores;\n"
   "                   the output is the same bytes for any N\n"
   "  --engine E       cairo (default: the views above) or blender: the take's --camera rendered\n"
   "                   photoreal by headless Blender (EEVEE, the add-on's scene) under the same\n"
   "                   HUD; Blender from $MOTOTAKE_BLENDER or PATH (missing: exit 2)\n"
   "  --samples N      --engine blender: EEVEE samples a pixel, 1..256 (default 16)\n"
   "  --lesson NAME    a lesson of takes/lessons/ (list: their names): its takes ridden beside the\n"
   "                   output as SCRIPT.lesson.take (reused while they recorded the same script),\n"
   "                   its parts rendered one after the other into one captioned MP4\n"
   "  --preview S      with --lesson: only the first S seconds of video of each part\n"},
  {"slip", NULL, "tyre slip angles of a take: truth, telemetry estimate, CG distances (PNG, CSV)",
   "usage: mototake slip TAKE [-o slip.png] [--csv out.csv] [--json] [--size WxH] [--ay-max A] [--truth-only]\n"
   "                     [--ab A,B] [--plain] [--quiet]\n\n"
   "The true slip angles the take recorded, front and rear, against time and lateral acceleration,\n"
   "the front-rear difference, the time beyond the tyre model's grip optimum, per track segment; and\n"
   "the sim-racing telemetry estimate from motion alone (CG velocity v_x, v_y in the heading axes, yaw\n"
   "rate r, steer angle in the ground plane): a and b estimated from low-lateral-acceleration samples\n"
   "against the rig's, and the estimated slip angles against the true ones. See docs/slip.md.\n"
   "  -o FILE       the figure (PNG)\n"
   "  --csv FILE    the samples (100 Hz) with truth, optimum and estimate (RFC 4180)\n"
   "  --json        machine-readable summary\n"
   "  --size WxH    figure size (default 1600x1100)\n"
   "  --ay-max A    |a_y| bound of the samples that estimate a and b, m/s^2 (default 1.5)\n"
   "  --truth-only  skip the estimate (a take with no low-acceleration data is otherwise refused, exit 2)\n"
   "  --ab A,B      use these CG distances (m) instead of estimating them (e.g. from a skidpad take)\n"
   "  --plain       as a car's telemetry tool: the frame's yaw axes, the CG's lateral velocity, the steer\n"
   "                on a level road, a and b as medians with the slip taken as zero (for comparison)\n"
   "  --quiet       no progress bar (else one on stderr when it is a terminal)\n"},
  {"blender-addon", NULL, "write the Blender add-on (File > Import > mototake take) as a zip",
   "usage: mototake blender-addon -o mototake_blender.zip [--program PATH]\n\n"
   "The add-on (blender/mototake_io) as a zip to install in Blender 3.4 or newer (Edit >\n"
   "Preferences > Add-ons > Install...). It imports a .glb/.gltf written by `mototake export`\n"
   "(or a .take, which it exports with the mototake program first): sets the scene's fps and\n"
   "frame range, puts the take in a collection named after it, adds a camera per camera rig,\n"
   "a timeline marker per event and the channels as animated custom properties of the root.\n"
   "See docs/export.md.\n"
   "  -o FILE.zip      the add-on zip\n"
   "  --program PATH   the mototake the add-on runs for .take files (default: this program's\n"
   "                   absolute path; the add-on's preferences and $MOTOTAKE override it)\n"},
  {"sweep", NULL, "run a grid of takes over rig parameters on all cores, indexed in SQLite",
   "usage: mototake sweep SCRIPT.lua --vary KEY=A:B:N [--vary ...] -o DIR [--jobs N] [--no-verify]\n"
   "                      [--retry-failed] [--quiet]\n"
   "       mototake sweep SCRIPT.lua --vary KEY=A:B:N [--vary ...] -o DIR --emit gnu-parallel|slurm [--program P]\n"
   "                      [--time MIN] [--mem MB]\n\n"
   "The grid of takes: every combination of the --vary axes (KEY a rig parameter, as `mototake rig\n"
   "info RIG --params` lists them and `run --set` takes; N values from A to B), each ridden by\n"
   "`mototake run SCRIPT --set KEY=V ...` in its own process and verified bit for bit by `take verify`.\n"
   "Takes land in DIR/pNNNN.take (their output in DIR/pNNNN.log); DIR/index.sqlite gets one row per\n"
   "point as it finishes (parameters, duration, lap time, max lean, max lateral g, min/max speed,\n"
   "fell, left the track, wobble-band steer, verify status, wall time). A killed sweep leaves a\n"
   "readable index; the same command again skips the points it holds. See docs/sweep.md.\n"
   "  --vary KEY=A:B:N  an axis (up to 8); points run with the last axis varying fastest\n"
   "  -o DIR            the sweep's folder (created; an existing one must hold the same sweep)\n"
   "  --jobs N          processes at once (default: the number of cores)\n"
   "  --no-verify       do not verify the takes (verify column 'skipped')\n"
   "  --retry-failed    run points recorded as failed again\n"
   "  --quiet           no progress lines on stderr\n"
   "  --emit KIND       run nothing: write DIR/jobs.txt (gnu-parallel: one command line per point) or\n"
   "                    DIR/sweep.slurm (slurm: a job array, one task per point) and DIR/README.txt;\n"
   "                    afterwards `mototake sweep index DIR` indexes the takes\n"
   "  --program P       the mototake the job list calls (default: this program's absolute path)\n"
   "  --time MIN        slurm: each task's time limit, minutes (#SBATCH --time; default: the script's\n"
   "                    duration ridden at 5x real time, at least 5 minutes)\n"
   "  --mem MB          slurm: each task's memory, MB (#SBATCH --mem; default 512, five times a\n"
   "                    lap's 95 MB)\n"},
  {"sweep index", NULL, "index the takes of a sweep made elsewhere (GNU parallel, SLURM)",
   "usage: mototake sweep index DIR [--jobs N] [--no-verify] [--retry-failed] [--quiet]\n\n"
   "For every point of the sweep in DIR (written by `mototake sweep ... --emit`) that is not in\n"
   "DIR/index.sqlite yet and whose take DIR/pNNNN.take exists and is not being written: verify it\n"
   "(--jobs at once) and add its row. Points without a take stay out; run it again later.\n"},
  {"sweep report", NULL, "a sweep's index as a table, CSV or a plot (PNG)",
   "usage: mototake sweep report DIR [-o table.csv | -o plot.png] [--x KEY] [--y METRIC] [--size WxH]\n\n"
   "Without -o, a table on the terminal. -o x.csv: every column of every point (RFC 4180, a header\n"
   "row of names and a row of units). -o x.png: METRIC (default max_lean; also duration, lap_time,\n"
   "max_ay_g, min_speed, max_speed, max_offset, fell, left_track, band_max, band_share, marks,\n"
   "wall_run, wall_verify) against the varied KEY (default the first), one line per combination\n"
   "of the other axes; failed points are not drawn.\n"},
  {"export-demo", NULL, "developer: export a synthetic ride (no take needed)",
   "usage: mototake export-demo -o out.glb|out.gltf|out.fbx [--fps N] [--from S] [--to S] [--reduce TOL]\n"
   "                            [--reduce-ang RAD] [--up y|z] [--no-track] [--camera] [--duration S]\n"
   "                            [--rate HZ] [--json] [--bench]\n\n"
   "Exports a 12-body motorcycle and rider with known analytic poses (60 m/s, wheels at\n"
   "200 rad/s) sampled at --rate (default 1000 Hz) for --duration seconds (default 2), exactly\n"
   "as `mototake export` exports a take. Prints frames, keys before and after reduction, and\n"
   "with --bench the export time. See docs/export.md.\n"},
  {"serve", NULL, "the web pages: take library, rig editor with live plots, comparisons (local HTTP)",
   "usage: mototake serve [--port 29176] [--root DIR] [--listen ADDR]\n\n"
   "Serve the pages in web/ and their JSON APIs (docs/web.md) until stopped (Ctrl-C). Prints the\n"
   "URL to open, with the token every request must carry. The library lists every take under DIR\n"
   "(default: the current folder); thumbnails, previews, exports and plots are made by running\n"
   "this program and cached in DIR/.mototake-web/; \"ride this\" writes new takes to DIR/runs/ and\n"
   "\"save as\" new override sets to DIR/overrides/ (never overwriting a file).\n"
   "  --port N       TCP port (default 29176)\n"
   "  --root DIR     the folder of takes (default .)\n"
   "  --listen ADDR  IPv4 address to listen on (default 127.0.0.1, loopback only); any other\n"
   "                 address prints a warning: the pages can run the simulator\n"},
};

static const command* commands(size_t* n) {
  /* Bind the weak references at run time (they are not constant expressions). */
  static command t[MT_ARRAY_LEN(TABLE)];
  static int init;
  if (!init) {
    memcpy(t, TABLE, sizeof TABLE);
    const struct { const char* name; cmd_fn fn; } bind[] = {
      {"track info", cmd_track_info}, {"track plan", cmd_track_plan}, {"lapsim", cmd_lapsim}, {"tyre", cmd_tyre},
      {"plot tyre", cmd_plot_tyre}, {"plot engine", cmd_plot_engine}, {"engine", cmd_engine},
      {"rig info", cmd_rig_info}, {"rig draw", cmd_rig_draw}, {"trim", cmd_trim}, {"modes", cmd_modes}, {"bode", cmd_bode}, {"spectrum", cmd_spectrum}, {"run", cmd_run}, {"ride", cmd_ride},
      {"take info", cmd_take_info}, {"take verify", cmd_take_verify},
      {"take channels", cmd_take_channels}, {"take cut", cmd_take_cut}, {"export", cmd_export},
      {"take band", cmd_take_band}, {"take shifts", cmd_take_shifts},
      {"export-demo", cmd_export_demo}, {"render", cmd_render}, {"blender-addon", cmd_blender_addon},
      {"slip", cmd_slip},
      {"sweep", cmd_sweep}, {"sweep index", cmd_sweep_index}, {"sweep report", cmd_sweep_report},
      {"serve", cmd_serve},
    };
    for (size_t i = 0; i < MT_ARRAY_LEN(t); i++)
      for (size_t j = 0; j < MT_ARRAY_LEN(bind); j++)
        if (strcmp(t[i].name, bind[j].name) == 0) t[i].fn = bind[j].fn;
    init = 1;
  }
  *n = MT_ARRAY_LEN(t);
  return t;
}

/* Find the command named by argv[0] (and argv[1] for two-word commands); *used = words consumed. */
static const command* lookup(int argc, char** argv, int* used) {
  size_t n;
  const command* t = commands(&n);
  if (argc >= 2) {
    char two[128];
    snprintf(two, sizeof two, "%s %s", argv[0], argv[1]);
    for (size_t i = 0; i < n; i++)
      if (t[i].fn && strcmp(t[i].name, two) == 0) {
        *used = 2;
        return &t[i];
      }
  }
  for (size_t i = 0; i < n; i++)
    if (t[i].fn && argc >= 1 && strcmp(t[i].name, argv[0]) == 0) {
      *used = 1;
      return &t[i];
    }
  return NULL;
}

void cli_print_help(const char* name) {
  size_t n;
  const command* t = commands(&n);
  for (size_t i = 0; i < n; i++)
    if (t[i].fn && strcmp(t[i].name, name) == 0) {
      fputs(t[i].usage, stdout);
      return;
    }
}

static void list_commands(FILE* f) {
  size_t n;
  const command* t = commands(&n);
  fprintf(f, "mototake %s — a motorcycle simulator with a film crew's toolchain\n\n"
             "usage: mototake COMMAND [ARGS...]\n\ncommands:\n", mt_version());
  for (size_t i = 0; i < n; i++)
    if (t[i].fn) fprintf(f, "  %-15s %s\n", t[i].name, t[i].summary);
  fprintf(f, "\nRun `mototake help COMMAND` or `mototake COMMAND --help` for details.\n");
}

static int cmd_help(int argc, char** argv) {
  if (argc == 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
    cli_print_help("help");
    return 0;
  }
  if (argc == 0) {
    list_commands(stdout);
    return 0;
  }
  int used = 0;
  const command* c = lookup(argc, argv, &used);
  if (!c || used != argc) {
    /* "help track" lists the track commands */
    size_t n, len = strlen(argv[0]);
    const command* t = commands(&n);
    int any = 0;
    for (size_t i = 0; i < n && argc == 1; i++)
      if (t[i].fn && strncmp(t[i].name, argv[0], len) == 0 && t[i].name[len] == ' ') {
        if (!any) printf("%s commands:\n", argv[0]);
        printf("  %-15s %s\n", t[i].name, t[i].summary);
        any = 1;
      }
    if (any) return 0;
    fprintf(stderr, "mototake: help: unknown command '%s'\n", argv[0]);
    return MT_EINPUT;
  }
  fputs(c->usage, stdout);
  return 0;
}

static int cmd_version(int argc, char** argv) {
  (void)argv;
  if (argc > 0 && strcmp(argv[0], "--help") == 0) {
    cli_print_help("version");
    return 0;
  }
  printf("mototake %s (git %s)\n", mt_version(), mt_git_rev());
  return 0;
}

int cli_main(int argc, char** argv) {
  cli_set_help_printer(cli_print_help);
  if (argc < 2) {
    list_commands(stderr);
    return MT_EINPUT;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) return cmd_help(0, NULL);
  if (strcmp(argv[1], "--version") == 0) return cmd_version(0, NULL);
  int used = 0;
  const command* c = lookup(argc - 1, argv + 1, &used);
  if (!c) {
    fprintf(stderr, "mototake: unknown command '%s' (run `mototake help` for the list)\n", argv[1]);
    return MT_EINPUT;
  }
  return c->fn(argc - 1 - used, argv + 1 + used);
}
