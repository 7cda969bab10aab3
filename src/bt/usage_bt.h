/* Each bpftrace generation's help text and -V line (usage_bt.c) */
#pragma once
#include <stdio.h>

void bt_usage_017(FILE *f);
void bt_usage_026(FILE *f);
void bt_version_017(FILE *f);
void bt_version_026(FILE *f);
