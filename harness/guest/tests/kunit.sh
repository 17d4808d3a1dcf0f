# Loads the KUnit test modules named by harness.kunit=MOD[,MOD...] and
# reports every case of their KTAP output; a skipped case is reported as
# passed with its reason. harness.kunit_known=MOD:CASE[,...] names cases
# that fail on SLUB too (stock 6.1.192): their failure is reported as a
# pass that says so. Every case the suites announce must show up: the
# test fails when the ring buffer lost some (give log_buf_len= then).
# The host runs kunit.py parse on the console log too (check.sh).
. /harness/lib.sh

mods=$(cmdline_arg harness.kunit) || { fail kunit "no harness.kunit= on the command line"; exit 1; }
known=,$(cmdline_arg harness.kunit_known),
for mod in $(echo "$mods" | tr ',' ' '); do
	ko=$(find /lib/modules -name "$mod.ko" | head -n 1)
	[ -n "$ko" ] || { fail "$mod" "module $mod.ko not in the initramfs"; continue; }
	dmesg -c > /dev/null
	insmod "$ko" || fail "$mod" "insmod $mod failed"
	# The KTAP lines, without timestamps; a case's line is indented, its
	# suite's is not (and only sums up the cases, so it is not reported).
	dmesg | sed -n 's/^\[[^]]*\] //p' > /tmp/ktap
	sed -nE 's/^ {4,}(ok|not ok) [0-9]+ ([^ ]*).*/\1 \2 &/p' /tmp/ktap |
		sed 's/^not ok /not /; s/  */ /g' > /tmp/ktap.cases
	cases=0
	while read -r st name line; do
		case "$st,$known" in
		ok,*) pass "$mod:$name" "$line" ;;
		not,*",$mod:$name,"*) pass "$mod:$name" "$line (fails on SLUB too)" ;;
		*) fail "$mod:$name" "$line" ;;
		esac
		cases=$((cases + 1))
	done < /tmp/ktap.cases
	planned=$(sed -n 's/.*# Totals: .*total:\([0-9]\{1,\}\).*/\1/p' /tmp/ktap | awk '{ s += $1 } END { print s + 0 }')
	if [ "$cases" = 0 ]; then
		fail "$mod" "no KTAP results in the log"
	elif [ "$cases" -lt "$planned" ]; then
		fail "$mod" "only $cases of the $planned case results are in the log (ring buffer too small? log_buf_len=)"
	fi
	rmmod "$mod" 2>/dev/null || true
done
