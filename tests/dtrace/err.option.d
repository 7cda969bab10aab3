/* -x with an option dtrace does not have */
BEGIN
{
}
