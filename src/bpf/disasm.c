/* BPF disassembler.  The text imitates the kernel verifier's log notation
 * (what users see when a program is rejected), so `sonde -d bpf` output can
 * be matched line by line against a verifier log. */
#include "disasm.h"

#include <stdarg.h>
#include <string.h>

/* Newer opcode bits that older uapi headers lack. */
#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif
#ifndef BPF_JCOND
#define BPF_JCOND 0xe0
#endif
#ifndef BPF_LOAD_ACQ
#define BPF_LOAD_ACQ 0x100
#endif
#ifndef BPF_STORE_REL
#define BPF_STORE_REL 0x110
#endif

/* Helper names by id, generated once from __BPF_FUNC_MAPPER in
 * /usr/include/linux/bpf.h; 210 and 211 come from newer kernels. */
static const char *const helper_names[] = {
	[1] = "map_lookup_elem",
	[2] = "map_update_elem",
	[3] = "map_delete_elem",
	[4] = "probe_read",
	[5] = "ktime_get_ns",
	[6] = "trace_printk",
	[7] = "get_prandom_u32",
	[8] = "get_smp_processor_id",
	[9] = "skb_store_bytes",
	[10] = "l3_csum_replace",
	[11] = "l4_csum_replace",
	[12] = "tail_call",
	[13] = "clone_redirect",
	[14] = "get_current_pid_tgid",
	[15] = "get_current_uid_gid",
	[16] = "get_current_comm",
	[17] = "get_cgroup_classid",
	[18] = "skb_vlan_push",
	[19] = "skb_vlan_pop",
	[20] = "skb_get_tunnel_key",
	[21] = "skb_set_tunnel_key",
	[22] = "perf_event_read",
	[23] = "redirect",
	[24] = "get_route_realm",
	[25] = "perf_event_output",
	[26] = "skb_load_bytes",
	[27] = "get_stackid",
	[28] = "csum_diff",
	[29] = "skb_get_tunnel_opt",
	[30] = "skb_set_tunnel_opt",
	[31] = "skb_change_proto",
	[32] = "skb_change_type",
	[33] = "skb_under_cgroup",
	[34] = "get_hash_recalc",
	[35] = "get_current_task",
	[36] = "probe_write_user",
	[37] = "current_task_under_cgroup",
	[38] = "skb_change_tail",
	[39] = "skb_pull_data",
	[40] = "csum_update",
	[41] = "set_hash_invalid",
	[42] = "get_numa_node_id",
	[43] = "skb_change_head",
	[44] = "xdp_adjust_head",
	[45] = "probe_read_str",
	[46] = "get_socket_cookie",
	[47] = "get_socket_uid",
	[48] = "set_hash",
	[49] = "setsockopt",
	[50] = "skb_adjust_room",
	[51] = "redirect_map",
	[52] = "sk_redirect_map",
	[53] = "sock_map_update",
	[54] = "xdp_adjust_meta",
	[55] = "perf_event_read_value",
	[56] = "perf_prog_read_value",
	[57] = "getsockopt",
	[58] = "override_return",
	[59] = "sock_ops_cb_flags_set",
	[60] = "msg_redirect_map",
	[61] = "msg_apply_bytes",
	[62] = "msg_cork_bytes",
	[63] = "msg_pull_data",
	[64] = "bind",
	[65] = "xdp_adjust_tail",
	[66] = "skb_get_xfrm_state",
	[67] = "get_stack",
	[68] = "skb_load_bytes_relative",
	[69] = "fib_lookup",
	[70] = "sock_hash_update",
	[71] = "msg_redirect_hash",
	[72] = "sk_redirect_hash",
	[73] = "lwt_push_encap",
	[74] = "lwt_seg6_store_bytes",
	[75] = "lwt_seg6_adjust_srh",
	[76] = "lwt_seg6_action",
	[77] = "rc_repeat",
	[78] = "rc_keydown",
	[79] = "skb_cgroup_id",
	[80] = "get_current_cgroup_id",
	[81] = "get_local_storage",
	[82] = "sk_select_reuseport",
	[83] = "skb_ancestor_cgroup_id",
	[84] = "sk_lookup_tcp",
	[85] = "sk_lookup_udp",
	[86] = "sk_release",
	[87] = "map_push_elem",
	[88] = "map_pop_elem",
	[89] = "map_peek_elem",
	[90] = "msg_push_data",
	[91] = "msg_pop_data",
	[92] = "rc_pointer_rel",
	[93] = "spin_lock",
	[94] = "spin_unlock",
	[95] = "sk_fullsock",
	[96] = "tcp_sock",
	[97] = "skb_ecn_set_ce",
	[98] = "get_listener_sock",
	[99] = "skc_lookup_tcp",
	[100] = "tcp_check_syncookie",
	[101] = "sysctl_get_name",
	[102] = "sysctl_get_current_value",
	[103] = "sysctl_get_new_value",
	[104] = "sysctl_set_new_value",
	[105] = "strtol",
	[106] = "strtoul",
	[107] = "sk_storage_get",
	[108] = "sk_storage_delete",
	[109] = "send_signal",
	[110] = "tcp_gen_syncookie",
	[111] = "skb_output",
	[112] = "probe_read_user",
	[113] = "probe_read_kernel",
	[114] = "probe_read_user_str",
	[115] = "probe_read_kernel_str",
	[116] = "tcp_send_ack",
	[117] = "send_signal_thread",
	[118] = "jiffies64",
	[119] = "read_branch_records",
	[120] = "get_ns_current_pid_tgid",
	[121] = "xdp_output",
	[122] = "get_netns_cookie",
	[123] = "get_current_ancestor_cgroup_id",
	[124] = "sk_assign",
	[125] = "ktime_get_boot_ns",
	[126] = "seq_printf",
	[127] = "seq_write",
	[128] = "sk_cgroup_id",
	[129] = "sk_ancestor_cgroup_id",
	[130] = "ringbuf_output",
	[131] = "ringbuf_reserve",
	[132] = "ringbuf_submit",
	[133] = "ringbuf_discard",
	[134] = "ringbuf_query",
	[135] = "csum_level",
	[136] = "skc_to_tcp6_sock",
	[137] = "skc_to_tcp_sock",
	[138] = "skc_to_tcp_timewait_sock",
	[139] = "skc_to_tcp_request_sock",
	[140] = "skc_to_udp6_sock",
	[141] = "get_task_stack",
	[142] = "load_hdr_opt",
	[143] = "store_hdr_opt",
	[144] = "reserve_hdr_opt",
	[145] = "inode_storage_get",
	[146] = "inode_storage_delete",
	[147] = "d_path",
	[148] = "copy_from_user",
	[149] = "snprintf_btf",
	[150] = "seq_printf_btf",
	[151] = "skb_cgroup_classid",
	[152] = "redirect_neigh",
	[153] = "per_cpu_ptr",
	[154] = "this_cpu_ptr",
	[155] = "redirect_peer",
	[156] = "task_storage_get",
	[157] = "task_storage_delete",
	[158] = "get_current_task_btf",
	[159] = "bprm_opts_set",
	[160] = "ktime_get_coarse_ns",
	[161] = "ima_inode_hash",
	[162] = "sock_from_file",
	[163] = "check_mtu",
	[164] = "for_each_map_elem",
	[165] = "snprintf",
	[166] = "sys_bpf",
	[167] = "btf_find_by_name_kind",
	[168] = "sys_close",
	[169] = "timer_init",
	[170] = "timer_set_callback",
	[171] = "timer_start",
	[172] = "timer_cancel",
	[173] = "get_func_ip",
	[174] = "get_attach_cookie",
	[175] = "task_pt_regs",
	[176] = "get_branch_snapshot",
	[177] = "trace_vprintk",
	[178] = "skc_to_unix_sock",
	[179] = "kallsyms_lookup_name",
	[180] = "find_vma",
	[181] = "loop",
	[182] = "strncmp",
	[183] = "get_func_arg",
	[184] = "get_func_ret",
	[185] = "get_func_arg_cnt",
	[186] = "get_retval",
	[187] = "set_retval",
	[188] = "xdp_get_buff_len",
	[189] = "xdp_load_bytes",
	[190] = "xdp_store_bytes",
	[191] = "copy_from_user_task",
	[192] = "skb_set_tstamp",
	[193] = "ima_file_hash",
	[194] = "kptr_xchg",
	[195] = "map_lookup_percpu_elem",
	[196] = "skc_to_mptcp_sock",
	[197] = "dynptr_from_mem",
	[198] = "ringbuf_reserve_dynptr",
	[199] = "ringbuf_submit_dynptr",
	[200] = "ringbuf_discard_dynptr",
	[201] = "dynptr_read",
	[202] = "dynptr_write",
	[203] = "dynptr_data",
	[204] = "tcp_raw_gen_syncookie_ipv4",
	[205] = "tcp_raw_gen_syncookie_ipv6",
	[206] = "tcp_raw_check_syncookie_ipv4",
	[207] = "tcp_raw_check_syncookie_ipv6",
	[208] = "ktime_get_tai_ns",
	[209] = "user_ringbuf_drain",
	[210] = "cgrp_storage_get",
	[211] = "cgrp_storage_delete",
};

const char *bpf_helper_name(int id)
{
	if (id <= 0 || id >= (int)(sizeof(helper_names) / sizeof(*helper_names)))
		return NULL;
	return helper_names[id];
}

/* Indexed by BPF_OP(code) >> 4; NULL where the op needs special text. */
static const char *const alu_ops[16] = {
	"+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=",
	NULL, "%=", "^=", "=",  "s>>=", NULL, NULL, NULL,
};
static const char *const jmp_ops[16] = {
	NULL, "==", ">", ">=", "&", "!=", "s>", "s>=",
	NULL, NULL, "<", "<=", "s<", "s<=", NULL, NULL,
};
/* Indexed by BPF_SIZE(code) >> 3. */
static const char *const size_names[4] = {"u32", "u16", "u8", "u64"};

/* A printf for the few conversions the disassembler uses (%c %s %d %+d
 * %4d %u %x %02x %llx): `sonde -d bpf` prints every instruction of every
 * program, and libc's printf was most of its time. */
static void put_num(StrBuf *sb, unsigned long long v, bool neg, bool plus,
		    int base, int width, char pad)
{
	char buf[32];
	int at = (int)sizeof(buf);
	do {
		buf[--at] = "0123456789abcdef"[v % (unsigned)base];
		v /= (unsigned)base;
	} while (v);
	if (neg || plus)
		buf[--at] = neg ? '-' : '+';
	while ((int)sizeof(buf) - at < width && at > 0)
		buf[--at] = pad;
	sb_putn(sb, buf + at, sizeof(buf) - (size_t)at);
}

static void put_int(StrBuf *sb, long long v, bool plus, int width)
{
	unsigned long long m = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	put_num(sb, m, v < 0, plus, 10, width, ' ');
}

static void dis_printf(StrBuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	for (const char *p = fmt; *p; p++) {
		const char *lit = p;
		while (*p && *p != '%')
			p++;
		if (p > lit)
			sb_putn(sb, lit, (size_t)(p - lit));
		if (!*p)
			break;
		p++;
		bool plus = *p == '+', zero = false, ll = false;
		if (plus)
			p++;
		if (*p == '0')
			zero = true, p++;
		int width = 0;
		while (*p >= '1' && *p <= '9')
			width = width * 10 + (*p++ - '0');
		if (p[0] == 'l' && p[1] == 'l')
			ll = true, p += 2;
		switch (*p) {
		case 'c':
			sb_putc(sb, (char)va_arg(ap, int));
			break;
		case 's':
			sb_puts(sb, va_arg(ap, const char *));
			break;
		case 'd':
			put_int(sb, va_arg(ap, int), plus, width);
			break;
		case 'u':
			put_num(sb, va_arg(ap, unsigned), false, false, 10, width, zero ? '0' : ' ');
			break;
		case 'x':
			put_num(sb, ll ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned), false,
				false, 16, width, zero ? '0' : ' ');
			break;
		default: /* '%' */
			sb_putc(sb, *p);
		}
	}
	va_end(ap);
}

static const char *size_name(const struct bpf_insn *in, bool sign)
{
	static const char *const signed_names[4] = {"s32", "s16", "s8", "s64"};
	int k = BPF_SIZE(in->code) >> 3;
	return sign ? signed_names[k] : size_names[k];
}

static void bad(StrBuf *sb, const struct bpf_insn *in)
{
	dis_printf(sb, "invalid insn code 0x%02x", in->code);
}

/* ALU and ALU64.  32-bit forms name registers wN, like the verifier. */
static void fmt_alu(StrBuf *sb, const struct bpf_insn *in)
{
	bool is64 = BPF_CLASS(in->code) == BPF_ALU64;
	char r = is64 ? 'r' : 'w';
	int op = BPF_OP(in->code), d = in->dst_reg, s = in->src_reg;
	bool x = BPF_SRC(in->code) == BPF_X;

	if (op == BPF_NEG) {
		dis_printf(sb, "%c%d = -%c%d", r, d, r, d);
	} else if (op == BPF_END) {
		/* ALU64 END is the unconditional byte swap; ALU END converts
		 * to/from the byte order named by the source bit. */
		const char *kind = is64 ? "bswap" : x ? "be" : "le";
		dis_printf(sb, "r%d = %s%d r%d", d, kind, in->imm, d);
	} else if (op == BPF_MOV && x && is64 && in->off == 1) {
		dis_printf(sb, "r%d = addr_space_cast(r%d, %d, %d)", d, s,
			  (int)((uint32_t)in->imm >> 16), in->imm & 0xffff);
	} else if (op == BPF_MOV && x && in->off) {
		if (in->off == 8 || in->off == 16 || in->off == 32)
			dis_printf(sb, "%c%d = (s%d)%c%d", r, d, in->off, r, s);
		else
			bad(sb, in);
	} else if ((op == BPF_DIV || op == BPF_MOD) && in->off == 1) {
		const char *o = op == BPF_DIV ? "s/=" : "s%=";
		if (x)
			dis_printf(sb, "%c%d %s %c%d", r, d, o, r, s);
		else
			dis_printf(sb, "%c%d %s %d", r, d, o, in->imm);
	} else if (!alu_ops[op >> 4]) {
		bad(sb, in);
	} else if (x) {
		dis_printf(sb, "%c%d %s %c%d", r, d, alu_ops[op >> 4], r, s);
	} else {
		dis_printf(sb, "%c%d %s %d", r, d, alu_ops[op >> 4], in->imm);
	}
}

/* "(u64 *)(r1 +8)": the memory operand shared by loads, stores, atomics. */
static void fmt_mem(StrBuf *sb, const struct bpf_insn *in, int base, bool sign)
{
	dis_printf(sb, "(%s *)(r%d %+d)", size_name(in, sign), base, in->off);
}

static void fmt_atomic(StrBuf *sb, const struct bpf_insn *in)
{
	int s = in->src_reg, op = in->imm;
	const char *w = BPF_SIZE(in->code) == BPF_DW ? "64" : "";
	static const char *const names[16] = {
		[BPF_ADD >> 4] = "add", [BPF_AND >> 4] = "and",
		[BPF_OR >> 4] = "or",	[BPF_XOR >> 4] = "xor",
	};
	const char *name = names[(op & 0xf0) >> 4];

	if (op == BPF_LOAD_ACQ) {
		dis_printf(sb, "r%d = load_acquire(", in->dst_reg);
		fmt_mem(sb, in, s, false);
		sb_puts(sb, ")");
	} else if (op == BPF_STORE_REL) {
		sb_puts(sb, "store_release(");
		fmt_mem(sb, in, in->dst_reg, false);
		dis_printf(sb, ", r%d)", s);
	} else if (op == BPF_XCHG || op == BPF_CMPXCHG) {
		bool cmp = op == BPF_CMPXCHG;
		dis_printf(sb, "r%d = atomic%s_%s(", cmp ? 0 : s, w,
			  cmp ? "cmpxchg" : "xchg");
		fmt_mem(sb, in, in->dst_reg, false);
		dis_printf(sb, cmp ? ", r0, r%d)" : ", r%d)", s);
	} else if (name && !(op & ~(0xf0 | BPF_FETCH)) && (op & BPF_FETCH)) {
		dis_printf(sb, "r%d = atomic%s_fetch_%s(", s, w, name);
		fmt_mem(sb, in, in->dst_reg, false);
		dis_printf(sb, ", r%d)", s);
	} else if (name && !(op & ~0xf0)) {
		sb_puts(sb, "lock *");
		fmt_mem(sb, in, in->dst_reg, false);
		dis_printf(sb, " %s r%d", alu_ops[op >> 4], s);
	} else {
		dis_printf(sb, "invalid atomic op 0x%x", (unsigned)op);
	}
}

/* LD, LDX, ST, STX (everything but ld_imm64, handled by the caller). */
static void fmt_mem_insn(StrBuf *sb, const struct bpf_insn *in)
{
	int cls = BPF_CLASS(in->code), mode = BPF_MODE(in->code);

	if (cls == BPF_LDX && (mode == BPF_MEM || mode == BPF_MEMSX)) {
		dis_printf(sb, "r%d = *", in->dst_reg);
		fmt_mem(sb, in, in->src_reg, mode == BPF_MEMSX);
	} else if (cls == BPF_STX && mode == BPF_MEM) {
		sb_puts(sb, "*");
		fmt_mem(sb, in, in->dst_reg, false);
		dis_printf(sb, " = r%d", in->src_reg);
	} else if (cls == BPF_STX && mode == BPF_ATOMIC &&
		   (BPF_SIZE(in->code) == BPF_DW || BPF_SIZE(in->code) == BPF_W)) {
		fmt_atomic(sb, in);
	} else if (cls == BPF_ST && mode == BPF_MEM) {
		sb_puts(sb, "*");
		fmt_mem(sb, in, in->dst_reg, false);
		dis_printf(sb, " = %d", in->imm);
	} else if (cls == BPF_LD && mode == BPF_ABS) {
		/* legacy socket-filter packet loads */
		dis_printf(sb, "r0 = *(%s *)skb[%d]", size_name(in, false),
			  in->imm);
	} else if (cls == BPF_LD && mode == BPF_IND) {
		dis_printf(sb, "r0 = *(%s *)skb[r%d + %d]",
			  size_name(in, false), in->src_reg, in->imm);
	} else {
		bad(sb, in);
	}
}

static int fmt_ld_imm64(StrBuf *sb, const struct bpf_insn *insns, int i, int n)
{
	const struct bpf_insn *in = &insns[i];
	if (i + 1 >= n) {
		dis_printf(sb, "r%d = <truncated ld_imm64>", in->dst_reg);
		return 1;
	}
	uint32_t lo = (uint32_t)in->imm, hi = (uint32_t)insns[i + 1].imm;
	int d = in->dst_reg;

	switch (in->src_reg) {
	case 0:
		dis_printf(sb, "r%d = 0x%llx ll", d,
			  (unsigned long long)hi << 32 | lo);
		break;
	case BPF_PSEUDO_MAP_FD:
		dis_printf(sb, "r%d = map[fd:%u]", d, lo);
		break;
	case BPF_PSEUDO_MAP_IDX:
		dis_printf(sb, "r%d = map[idx:%u]", d, lo);
		break;
	case BPF_PSEUDO_MAP_VALUE: /* second slot holds the value offset */
		dis_printf(sb, "r%d = map[fd:%u][0]+%u", d, lo, hi);
		break;
	case BPF_PSEUDO_MAP_IDX_VALUE:
		dis_printf(sb, "r%d = map[idx:%u][0]+%u", d, lo, hi);
		break;
	case BPF_PSEUDO_BTF_ID:
		dis_printf(sb, "r%d = btf_id[%u]", d, lo);
		break;
	case BPF_PSEUDO_FUNC:
		dis_printf(sb, "r%d = func pc%+d", d, in->imm);
		break;
	default:
		dis_printf(sb, "r%d = invalid ld_imm64 src %d", d, in->src_reg);
	}
	return 2;
}

static void fmt_call(StrBuf *sb, const struct bpf_insn *in)
{
	const char *name;

	if (in->src_reg == BPF_PSEUDO_CALL)
		dis_printf(sb, "call pc%+d", in->imm);
	else if (in->src_reg == BPF_PSEUDO_KFUNC_CALL)
		dis_printf(sb, "call kfunc#%d", in->imm);
	else if ((name = bpf_helper_name(in->imm)))
		dis_printf(sb, "call bpf_%s#%d", name, in->imm);
	else
		dis_printf(sb, "call unknown#%d", in->imm);
}

static void fmt_jmp(StrBuf *sb, const struct bpf_insn *in)
{
	bool j32 = BPF_CLASS(in->code) == BPF_JMP32;
	char r = j32 ? 'w' : 'r';
	int op = BPF_OP(in->code);

	if (op == BPF_JA) /* JMP32 JA is "gotol": 32-bit offset in imm */
		dis_printf(sb, j32 ? "gotol pc%+d" : "goto pc%+d",
			  j32 ? in->imm : in->off);
	else if (op == BPF_CALL && !j32)
		fmt_call(sb, in);
	else if (op == BPF_EXIT && !j32)
		sb_puts(sb, "exit");
	else if (op == BPF_JCOND && !j32 && in->src_reg == 0)
		dis_printf(sb, "may_goto pc%+d", in->off);
	else if (!jmp_ops[op >> 4])
		bad(sb, in);
	else if (BPF_SRC(in->code) == BPF_X)
		dis_printf(sb, "if %c%d %s %c%d goto pc%+d", r, in->dst_reg,
			  jmp_ops[op >> 4], r, in->src_reg, in->off);
	else
		dis_printf(sb, "if %c%d %s 0x%x goto pc%+d", r, in->dst_reg,
			  jmp_ops[op >> 4], (unsigned)in->imm, in->off);
}

int bpf_insn_format(StrBuf *sb, const struct bpf_insn *insns, int i, int n)
{
	const struct bpf_insn *in = &insns[i];

	switch (BPF_CLASS(in->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		fmt_alu(sb, in);
		return 1;
	case BPF_JMP:
	case BPF_JMP32:
		fmt_jmp(sb, in);
		return 1;
	case BPF_LD:
		if (in->code == (BPF_LD | BPF_DW | BPF_IMM))
			return fmt_ld_imm64(sb, insns, i, n);
		/* fall through */
	default:
		fmt_mem_insn(sb, in);
		return 1;
	}
}

/* Absolute target of a jump or bpf-to-bpf call at i, or -1 for other insns. */
static int jump_target(const struct bpf_insn *in, int i)
{
	int cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	if (cls != BPF_JMP && cls != BPF_JMP32)
		return -1;
	if (op == BPF_EXIT)
		return -1;
	if (op == BPF_CALL)
		return in->src_reg == BPF_PSEUDO_CALL ? i + 1 + in->imm : -1;
	if (op == BPF_JA && cls == BPF_JMP32)
		return i + 1 + in->imm;
	return i + 1 + in->off;
}

/* Where the script's text is read: line `line` starts at `at`.  Lines of
 * a program mostly grow, so each lookup walks on from the last one. */
typedef struct LineCursor {
	const char *text, *at;
	int line;
} LineCursor;

/* the start of line `line` (1-based), or NULL past the end */
static const char *line_start(LineCursor *c, int line)
{
	if (line < c->line || !c->at) {
		c->at = c->text;
		c->line = 1;
	}
	while (c->line < line && c->at) {
		c->at = strchr(c->at, '\n');
		if (c->at)
			c->at++;
		c->line++;
	}
	return c->at;
}

/* Prints "; <text of line>  (line N)" with surrounding blanks trimmed. */
static void print_source_line(FILE *out, LineCursor *c, int line)
{
	const char *p = line_start(c, line);
	if (!p || !*p) {
		fprintf(out, "; (line %d)\n", line);
		return;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	size_t len = strcspn(p, "\n");
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' ||
		       p[len - 1] == '\r'))
		len--;
	fprintf(out, "; %.*s  (line %d)\n", (int)len, p, line);
}

void bpf_disasm(FILE *out, const char *title, const struct bpf_insn *insns,
		int n, const int *lines, const char *text)
{
	StrBuf sb = {0};
	LineCursor cur = {text, text, 1};
	int last_line = 0; /* insns without a line do not reset it: no repeats */

	if (title)
		fprintf(out, "%s:\n", title);
	for (int i = 0; i < n;) {
		int line = lines ? lines[i] : 0;
		if (line > 0 && line != last_line && text) {
			print_source_line(out, &cur, line);
			last_line = line;
		}
		/* the whole line in one buffer, written once */
		sb_reset(&sb);
		dis_printf(&sb, "%4d: (%02x) ", i, insns[i].code);
		int used = bpf_insn_format(&sb, insns, i, n);
		int t = jump_target(&insns[i], i);
		if (t >= 0)
			dis_printf(&sb, " <%d>", t);
		sb_putc(&sb, '\n');
		fwrite(sb.s, 1, sb.len, out);
		i += used;
	}
	sb_free(&sb);
}
