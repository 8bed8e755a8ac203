# Sourced by the VM tests (tests/vm/test_*.sh): the kernel a test runs on, its module and where its files go.
#   STACKMAP_KERNEL=NAME   a kernel of tests/kernels.sh (6.1, 6.12, 6.12-rt, ...): its stackmap.ko, built in
#                          build/kmod-NAME/ (prepared and built here if needed), booted with its run-vm arguments;
#                          the test's output directory gets "-NAME" appended
#   unset                  as before: kmod/stackmap.ko (make), booted on the kernel it was built for (KVER if
#                          set, else the release in the module's vermagic)
# After vm_kernel_setup PROG OUT: KO, VM_ARGS (run-vm.sh arguments), OUT, KERNEL_LABEL ("6.12 (6.12.117+deb12-amd64)"),
# KERNEL_CONFIG (the kernel's .config, "" if unknown), KERNEL_MODDIR (its lib/modules/KVER, "" if unknown).
# shellcheck shell=bash disable=SC2034 # KO, VM_ARGS, OUT, KERNEL_LABEL are for the sourcing test

vm_kernel_setup() {
	local prog=$1 root kver log
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	OUT=$2 VM_ARGS=() KERNEL_CONFIG="" KERNEL_MODDIR=""
	if [[ -n ${STACKMAP_KERNEL:-} ]]; then
		OUT=$OUT-$STACKMAP_KERNEL
		mkdir -p "$root/build"
		log=$root/build/kmod-$STACKMAP_KERNEL.log
		# Prepares the kernel (once) and builds the module (a no-op when up to date).
		KO=$("$root/tests/kernels.sh" module "$STACKMAP_KERNEL" 2>"$log") || {
			cat "$log" >&2
			echo "$prog: no module for kernel $STACKMAP_KERNEL (see above)" >&2
			exit 1
		}
		mapfile -t VM_ARGS < <("$root/tests/kernels.sh" vm-args "$STACKMAP_KERNEL" 2>/dev/null)
		kver=$("$root/tests/kernels.sh" kver "$STACKMAP_KERNEL" 2>/dev/null)
		KERNEL_CONFIG=$("$root/tests/kernels.sh" config "$STACKMAP_KERNEL" 2>/dev/null)
		KERNEL_LABEL="$STACKMAP_KERNEL ($kver)"
		kernel_moddir_of "$kver" "$(vm_arg --kernel-root)"
	else
		KO=$root/kmod/stackmap.ko
		kver=${KVER:-}
		if [[ -z $kver && -r $KO ]]; then
			kver=$(modinfo -F vermagic "$KO" 2>/dev/null | cut -d' ' -f1)
		fi
		if [[ -n $kver && -r /boot/vmlinuz-$kver ]]; then
			VM_ARGS=(--kver "$kver")
			KERNEL_CONFIG=/boot/config-$kver
		fi
		KERNEL_LABEL="default (${kver:-newest /boot/vmlinuz-*})"
		[[ -z $kver ]] || kernel_moddir_of "$kver" ""
	fi
	[[ -r $KO ]] || { echo "$prog: $KO missing (run make)" >&2; exit 1; }
	echo "$prog: kernel $KERNEL_LABEL, module $KO"
}

# kernel_config_has OPTION: the kernel's .config sets CONFIG_OPTION=y.
kernel_config_has() {
	[[ -r $KERNEL_CONFIG ]] && grep -q "^CONFIG_$1=y\$" "$KERNEL_CONFIG"
}

# vm_arg OPTION: the value VM_ARGS gives OPTION, "" if none.
vm_arg() {
	local i
	for ((i = 0; i + 1 < ${#VM_ARGS[@]}; i++)); do
		[[ ${VM_ARGS[i]} != "$1" ]] || { echo "${VM_ARGS[i + 1]}"; return; }
	done
}

# kernel_moddir_of KVER ROOT: set KERNEL_MODDIR to ROOT's lib/modules/KVER (ROOT "" for the host's own).
kernel_moddir_of() {
	local d
	for d in "$2/lib/modules/$1" "$2/usr/lib/modules/$1"; do
		[[ ! -d $d/kernel ]] || { KERNEL_MODDIR=$d; return; }
	done
}

# ko_unpack SRC DEST: the module file SRC (.ko, .ko.xz, .ko.zst or .ko.gz) as a plain .ko at DEST (busybox
# insmod wants plain ELF); fails on any other name.
ko_unpack() {
	case $1 in
	*.ko) cp "$1" "$2" ;;
	*.ko.xz) xz -dc "$1" >"$2" ;;
	*.ko.zst) zstd -qdc "$1" >"$2" ;;
	*.ko.gz) gzip -dc "$1" >"$2" ;;
	*) return 1 ;;
	esac
}

# kernel_module NAME DEST: the kernel's module NAME, decompressed, as DEST; fails if it has none.
kernel_module() {
	local src
	[[ -n $KERNEL_MODDIR ]] || return 1
	src=$(find "$KERNEL_MODDIR/kernel" -name "$1.ko" -o -name "$1.ko.xz" -o -name "$1.ko.zst" | head -n1)
	ko_unpack "$src" "$2"
}
