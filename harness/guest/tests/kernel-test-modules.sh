# The kernel's own allocator-agnostic test modules: lib/test_meminit
# (meant to run with init_on_alloc=1 init_on_free=1), test_xarray and
# test_maple_tree. Each prints a summary line that is checked here.
# TEST_MODULES, set by a test that sources this one, picks some of them
# (default: all three).
# test_maple_tree's stock failure (BUG at next_prev_test:1991) dumps the
# stack; those dumps are allowed in this test only, and the count of
# failures is checked below.
# allow-log: BUG at next_prev_test:1991
# allow-log: Call Trace:
# needs-prog: kmod
# timeout: 400
. /harness/lib.sh

# run MODULE REGEX: load the module and find REGEX in what it printed.
run() {
	local mod=$1 want=$2 ko line
	ko=$(find /lib/modules -name "$mod.ko" | head -n 1)
	[ -n "$ko" ] || { fail "$mod" "module $mod.ko not in the initramfs"; return; }
	dmesg -c > /dev/null
	insmod "$ko" 2>/dev/null	# test modules may refuse to stay loaded
	line=$(dmesg | grep -E "$want" | tail -n 1)
	if [ -n "$line" ]; then pass "$mod" "${line#*] }"; else fail "$mod" "$(dmesg | tail -n 3 | tr '\n' ' ')"; fi
	rmmod "$mod" 2>/dev/null || true
}
# maple: test_maple_tree of 6.1.192 fails one case (BUG at
# next_prev_test:1991) on SLUB and SLAB, and its init then fails. It is
# loaded with kmod's insmod: BusyBox insmod tries init_module() again when
# finit_module() fails, which runs all the tests a second time (twice the
# time: over two hours on the debug kernel); libkmod falls back only when
# finit_module() is missing (ENOSYS). kmod picks its command by its name.
maple() {
	local mt_known=1 ko line runs other
	ko=$(find /lib/modules -name test_maple_tree.ko | head -n 1)
	[ -n "$ko" ] || { fail test_maple_tree "module test_maple_tree.ko not in the initramfs"; return; }
	[ -x /usr/bin/kmod ] || { fail test_maple_tree "no kmod in the initramfs (needs-prog: kmod)"; return; }
	ln -sf /usr/bin/kmod /tmp/insmod
	dmesg -c > /dev/null
	/tmp/insmod "$ko" 2>/dev/null
	runs=$(dmesg | grep -c 'TEST STARTING')
	line=$(dmesg | grep -E 'maple_tree: [0-9]+ of [0-9]+ tests passed' | tail -n 1)
	# shellcheck disable=SC2046 # two numbers, split on purpose
	set -- $(echo "$line" | sed 's/.*maple_tree: \([0-9]*\) of \([0-9]*\) tests passed.*/\1 \2/')
	# Each failed check prints 'BUG at FUNCTION:LINE': the failures allowed
	# are the stock one, at that place, and no other.
	other=$(dmesg | grep 'BUG at ' | grep -vc 'BUG at next_prev_test:1991 ')
	if [ "$runs" != 1 ]; then
		fail test_maple_tree "its tests ran $runs times in one insmod, not once"
	elif [ "$other" != 0 ]; then
		fail test_maple_tree "${line#*] }: a failure besides the stock one: $(dmesg | grep 'BUG at ' | grep -v 'BUG at next_prev_test:1991 ' | head -n 1 | sed 's/^\[[^]]*\] //')"
	elif [ $# = 2 ] && [ $(($2 - $1)) -le $mt_known ]; then
		pass test_maple_tree "${line#*] } (stock 6.1.192 fails $mt_known)"
	else
		fail test_maple_tree "${line:-no summary line} (stock 6.1.192 fails $mt_known)"
	fi
	rmmod test_maple_tree 2>/dev/null || true
}

for t in ${TEST_MODULES:-test_meminit test_xarray test_maple_tree}; do
	case $t in
	test_meminit) run test_meminit 'test_meminit: all [0-9]+ tests passed' ;;
	test_xarray) run test_xarray 'XArray: ([0-9]+) of \1 tests passed' ;;
	test_maple_tree) maple ;;
	*) fail "$t" "no such test module" ;;
	esac
done
