/* powertrain.h — load the engine and drivetrain of a rig file or of a powertrain file.
 *
 * Both kinds of file are Lua returning a table with top-level `engine` and (optionally, for a
 * powertrain file) `drivetrain` tables; a rig file has more, which is ignored here. The
 * commands `engine` and `plot engine` use this; the rig loader reads the same tables itself
 * with engine_params_read and drive_params_read. */
#ifndef POWERTRAIN_H
#define POWERTRAIN_H

#include "sim/drivetrain.h"
#include "sim/engine.h"

typedef struct powertrain {
  engine_params engine;
  drive_params drive;
  int has_drive;            /* the file had a drivetrain table */
  char path[4096];          /* the file actually read */
  char name[128];           /* engine.name, or the file's base name */
} powertrain;

/* Load path (or the shipped rigs/NAME.lua when path is a bare name that is not a file). */
int powertrain_load(const char* path, powertrain* pt, mt_err* e);

#endif
