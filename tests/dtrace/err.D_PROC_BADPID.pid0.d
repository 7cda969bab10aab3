/* pid0 names no process */
pid0:::entry
{
}
