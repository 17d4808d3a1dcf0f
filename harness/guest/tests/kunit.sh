# Loads the KUnit test modules named by harness.kunit=MOD[,MOD...] and
# reports every case (kunit_run in lib.sh). The host runs kunit.py parse on
# the console log too (check.sh). A suite run taints the kernel N.
# expect-taint: N
. /harness/lib.sh

mods=$(cmdline_arg harness.kunit) || { fail kunit "no harness.kunit= on the command line"; exit 1; }
for mod in $(echo "$mods" | tr ',' ' '); do
	kunit_run "$mod"
done
