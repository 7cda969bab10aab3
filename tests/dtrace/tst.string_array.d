/* A string scalar array holds one string per element, as in DTrace:
 * global, thread-local and clause-local; unset elements are "". */
#pragma D option quiet

string s[4];
self string u[2];
this string t[3];

BEGIN
{
	s[1] = "one";
	i = 2;
	s[i] = "two";
	self->u[1] = "self";
	this->t[0] = "x";
	this->t[2] = strjoin(s[1], s[2]);
	trace(s[1]);
	printf(" [%s] %s %s|%s|\n", s[0], s[i], self->u[0], self->u[1]);
	printf("%s %s %s %d\n", this->t[0], this->t[1] == "" ? "empty" : "?", this->t[2],
	    sizeof(s) / sizeof(s[0]));
	exit(0);
}
