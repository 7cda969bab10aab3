/* cleanpath(): "//", "/./" and "dir/.." removed, as dtrace-utils cleans
 * paths (its tst.cleanpath.r): no trailing "/", ".." kept where nothing
 * precedes it in a relative path and dropped at the root, "." for a path
 * that cleans to nothing, "" for "" */
#pragma D option quiet

#define C(p) printf("%-30s %s\n", p, cleanpath(p))

BEGIN
{
	C("/foo/bar/baz"); C("/foo/bar///baz/"); C("/foo/bar/baz//"); C("/foo/bar/baz/.");
	C("/foo/bar/baz/./"); C("/foo/bar/../../baz/.//"); C("foo/bar/./././././baz/");
	C("/foo/bar/baz/../../../../../../"); C("/../../../../../../"); C("/./");
	C("/foo/bar/baz/../../bop/bang/../../bar/baz/"); C("./"); C("//"); C("/.");
	C("/./."); C("/.//"); C("."); C("/////"); C(""); C("a/."); C("a/./."); C("./a");
	C("././a"); C(".."); C("../.."); C("../../../.."); C("a/.."); C("abc"); C("a/");
	C("/abc"); C("z/a/../b"); C("/z/a/b/../../././c///d/e"); C("/a/.."); C("/a/../..");
	C("a/../b"); C("a/../.."); C("a/b/../../././c///d/e"); C("..."); C("/a/.../b/..");
	C(".a/..b/.c"); C("a/b/c/../../../../x");
	exit(0);
}
