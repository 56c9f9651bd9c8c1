#!/bin/sh
bin/mt_bench vehicle
