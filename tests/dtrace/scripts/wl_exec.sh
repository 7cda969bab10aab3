#!/bin/sh
# execsnoop.d's workload: one program run with arguments
/bin/echo hello world >/dev/null
