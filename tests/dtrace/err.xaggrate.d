/* -x aggrate: a negative rate is refused */
