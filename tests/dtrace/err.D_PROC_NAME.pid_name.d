/* a probe name that is neither entry, return nor an offset */
pid$target:a.out:add3:beginning
{
}
