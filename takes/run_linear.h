/* run_linear.h — the take script's linear analysis (the memo's LINEARIZE) for the runner.
 *
 * Contract: run_linearise linearises the ride's vehicle about its current state and inputs with
 * the selection in force (the script's `linear` table, or the last event's that gave one) and
 * writes BASE.m (MATLAB/Octave: MatrixA..MatrixD with every state, input and output named in
 * comments) and BASE.json, BASE being the event's `linearise = "name"` or TAKE_linK (K counting
 * the take's linearisations from 1; a MATLAB name), in the take file's folder. On a dry run
 * (take_path NULL) the model is computed (its errors are reported) but no file is written. The
 * vehicle is restored bit for bit (sim/linear.h): the ride goes on exactly as without it. *json_event receives the event's record (caller frees). Errors name the script's line. */
#ifndef RUN_LINEAR_H
#define RUN_LINEAR_H

#include "sim/linear.h"
#include "takes/script.h"

/* Check every `linear` selection of the script against the vehicle before riding (a closed-loop
 * event's rider.* states are checked when it linearises: the rider's loops are built later), and
 * refuse a closed loop the controller's states do not cover (the rider's posture loop). */
int run_linear_check(vehicle* v, const take_script* sc, mt_err* e);
/* loop: the ride's controller for the event's `loop = "closed"` (sim/linear.h lin_abcd_loop), NULL
 * for the open loop; the event's record and the files name which. */
int run_linearise(vehicle* v, const lin_loop* loop, const take_script* sc, const lin_spec* spec, int event,
                  const char* take_path, int count, char** json_event, mt_err* e);

#endif
