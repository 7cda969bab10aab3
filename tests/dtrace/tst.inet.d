/* inet_ntoa(), inet_ntoa6() and inet_ntop() of the addresses a process
 * connects to (copied from its sockaddr), printed by printf, trace() and
 * as aggregation keys */
syscall::connect:entry
/pid == $target && *(uint16_t *)copyin(arg1, 2) == 2/
{
	printf("%s %s|", inet_ntoa((ipaddr_t *)copyin(arg1 + 4, 4)), inet_ntop(2, copyin(arg1 + 4, 4)));
	trace(inet_ntoa(copyin(arg1 + 4, 4)));
	printf("|\n");
	@[inet_ntop(2, copyin(arg1 + 4, 4))] = count();
}

syscall::connect:entry
/pid == $target && *(uint16_t *)copyin(arg1, 2) == 10/
{
	printf("%s %s\n", inet_ntoa6((struct in6_addr *)copyin(arg1 + 8, 16)),
	    inet_ntop(10, copyin(arg1 + 8, 16)));
	@[inet_ntop(10, copyin(arg1 + 8, 16))] = count();
}

syscall::connect:entry
/pid == $target && *(uint16_t *)copyin(arg1, 2) == 10/
{
	inet_ntop(3, copyin(arg1 + 8, 16));
	printf("not reached: a family other than 2 and 10 ends the clause\n");
}
