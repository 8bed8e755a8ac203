# Off-CPU time per state, computed from `trace-cmd report -t` text alone, to
# check fgdecode --off-cpu against something that shares none of its code.
# A task's interval runs from a sched_switch with prev_pid=P (state
# prev_state=X) to the next with next_pid=P, in ns; pid 0 is left out;
# switch-ins with no switch-out before them and tasks still off at the end
# are counted, not charged (what fgdecode documents).  Prints
#   interval P X OUT IN (one line per interval: pid, state, switch-out and
#                        switch-in timestamps in ns, in the order they end)
#   state X NS N        (one line per state: ns and number of intervals)
#   total NS N
#   no_switch_out N
#   still_off N
# Comm values with spaces would shift fields: prev_pid etc. are found by
# name, not by position.
/ sched_switch: / {
	ts = ""
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = $i; break }
	sub(/:$/, "", ts)
	split(ts, p, ".")
	ns = p[1] * 1000000000 + p[2]
	prev = state = next_pid = ""
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^prev_pid=/) prev = substr($i, 10)
		else if ($i ~ /^prev_state=/) state = substr($i, 12)
		else if ($i ~ /^next_pid=/) next_pid = substr($i, 10)
	}
	if (next_pid != 0) {
		if (next_pid in off) {
			d = ns - off[next_pid]
			printf "interval %s %s %d %d\n", next_pid, st[next_pid], off[next_pid], ns
			sum[st[next_pid]] += d
			cnt[st[next_pid]]++
			total += d
			n++
			delete off[next_pid]
		} else {
			no_out++
		}
	}
	if (prev != 0) {
		off[prev] = ns
		st[prev] = state
	}
}
END {
	for (s in sum)
		printf "state %s %d %d\n", s, sum[s], cnt[s]
	printf "total %d %d\n", total, n
	printf "no_switch_out %d\n", no_out
	still = 0
	for (t in off)
		still++
	printf "still_off %d\n", still
}
