/* -c of a "#!" script: a.out is its interpreter once exec'd, which has
 * no such function (not: no probe matched) */
pid$target:a.out:no_such_function:entry
{
}
