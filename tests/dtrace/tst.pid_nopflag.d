/* pidNNN::: of any running process, without -p: here timeout(1), which
 * runs sonde, and the libc it maps */
