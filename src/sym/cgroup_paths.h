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

/* cgroupid("PATH"): the id of the cgroup at PATH, as bpftrace 0.17 finds
 * it: the first 8 bytes of the path's file handle (name_to_handle_at),
 * which on cgroupfs is the directory's inode number.  False with errno
 * set when PATH has no such handle. */
bool cgroup_id_of_path(const char *path, uint64_t *id);
