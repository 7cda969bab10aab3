/* an offset past the end of the function */
pid$target:a.out:leaf:1000
{
}
