/* cgroup_path(): a cgroup id as the path of that cgroup in each mounted
 * cgroup hierarchy, found by inode number. */
#pragma once
#include <stdint.h>

#include "../util/util.h"

/* "unified:/a/b,cpu:/a,..." for the hierarchies whose name matches filter
 * (a shell pattern; NULL = all): cgroup2 is named "unified", a v1
 * hierarchy by its mount point's last component; unified first, then by
 * name; an id not found in a hierarchy gives an empty path there. */
void cgroup_paths_format(StrBuf *sb, uint64_t id, const char *filter);
