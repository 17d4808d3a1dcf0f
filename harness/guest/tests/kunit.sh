# Loads the KUnit test modules named by harness.kunit=MOD[,MOD...] and
# reports every case of their KTAP output; a skipped case is reported as
# passed with its reason. The host also keeps the log for kunit.py parse.
. /harness/lib.sh

mods=$(cmdline_arg harness.kunit) || { fail kunit "no harness.kunit= on the command line"; exit 1; }
for mod in $(echo "$mods" | tr ',' ' '); do
	ko=$(find /lib/modules -name "$mod.ko" | head -n 1)
	[ -n "$ko" ] || { fail "$mod" "module $mod.ko not in the initramfs"; continue; }
	dmesg -c > /dev/null
	insmod "$ko" || fail "$mod" "insmod $mod failed"
	dmesg > /tmp/ktap
	cases=0
	while read -r line; do
		case "$line" in
		"not ok "*) fail "$mod:$(echo "$line" | cut -d' ' -f4)" "$line" ;;
		"ok "*) pass "$mod:$(echo "$line" | cut -d' ' -f3)" "$line" ;;
		*) continue ;;
		esac
		cases=$((cases + 1))
	done <<-LINES
	$(sed -n 's/^\[[^]]*\] *//; s/^ *\(\(not \)\{0,1\}ok [0-9]\{1,\} .*\)/\1/p' /tmp/ktap)
	LINES
	[ "$cases" -gt 0 ] || fail "$mod" "no KTAP results in the log"
	rmmod "$mod" 2>/dev/null || true
done
