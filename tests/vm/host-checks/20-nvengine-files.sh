# Host side of cases/20-nvengine-files.sh: the engine's fio JSON parses, has
# no job error and moved data.  Nothing to check when the case skipped.
. "$TOP/tests/vm/host-lib.sh"

for j in file-randrw-verify file-write-read; do
	[ -e "$VMRES/$j.json" ] || continue
	check_fio_json "$j"
done

# The trace header's kernel and ring.features match the guest's kernel:
# DEFER_TASKRUN from 6.1, a registered ring fd from 5.18, neither on 5.10.
t=$(ls "$VMRES"/trace/*.nvt 2>/dev/null | head -n 1)
if [ -n "$t" ]; then
	kver=$(awk '$1 == "kernel" {print $2}' "$VMOUT/boot-info")
	stat=$("$NVANALYZE" stat "$t" 2>&1)
	feat=$(echo "$stat" | sed -n 's/^ *ring.features = //p')
	kmm=$(echo "$kver" | awk -F. '{print $1 * 1000 + $2}')
	bad=
	for w in DEFER_TASKRUN:6001 REGISTERED_RING_FD:5018; do
		has=0
		case ",$feat," in *",${w%:*},"*) has=1;; esac
		want=0
		[ "$kmm" -ge "${w#*:}" ] && want=1
		[ $has = $want ] || bad="$bad ${w%:*}(has $has, want $want)"
	done
	if echo "$stat" | grep -qxF "  kernel = $kver" && [ -z "$bad" ]; then
		pass file-trace-ring-features
	else
		fail file-trace-ring-features "kernel '$kver', ring.features '$feat':$bad"
	fi
	info file-trace "kernel $kver: ring.features $feat"
fi
