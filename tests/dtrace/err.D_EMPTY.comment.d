/* no clause at all: reported on the last line */

