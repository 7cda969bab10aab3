/* pystack / jstack(): the Python frames of the current thread, walked in
 * BPF.  The thread state comes from glibc's TLS slot of CPython's TSS key
 * (fsbase from the task), then cframe->current_frame and each frame's
 * `previous`.  Per frame the value keeps (code object, instruction index);
 * the first time a (pid, code object) is seen, its file name, qualified
 * name, first line and line table are copied into the pycode cache map, so
 * the printer resolves lines without the process (which may have exited).
 * Every code object's type is checked against PyCode_Type: memory that is
 * not a code object ends the walk and marks the stack (PYSTACK_BAD).  A
 * read that fails on the way (memory BPF cannot fault in) marks it too
 * (PYSTACK_CUT): a stack cut short must not pass for a whole one. */
#include <string.h>

#include "../sym/pylayout.h"
#include "pystack.h"

typedef struct PyGen {
	Gen *g;
	const PyLayout *l;
	int tmp, frame, head, key, val, gen; /* scratch offsets */
	int base;                        /* the process's PyBase (PyLayout.nfiles), else -1 */
	int done, cut;                   /* labels: the walk's end, a failed read */
} PyGen;

/* probe_read_{user,kernel}(scratch dst, n, r3); on failure goto fail */
static void read_into(PyGen *p, int dst, int n, bool kernel, int fail)
{
	emit_scratch_ptr(p->g, BPF_REG_1, dst);
	emit(p->g, I_MOV64_IMM(BPF_REG_2, n));
	emit_call(p->g, kernel ? BPF_FUNC_probe_read_kernel : BPF_FUNC_probe_read_user);
	emit_jmp_imm(p->g, BPF_JNE, BPF_REG_0, 0, fail);
}

/* r3 = *(u64 *)(scratch src) + add */
static void addr_from(PyGen *p, int src, int64_t add)
{
	emit_ldx(p->g, BPF_DW, BPF_REG_3, R_SCR, src);
	if (add)
		emit(p->g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, (int32_t)add));
}

/* *(u64 *)tmp = *(u64 *)(*(u64 *)(scratch src) + off); goto done if 0 */
static void follow(PyGen *p, int src, int off)
{
	addr_from(p, src, off);
	read_into(p, p->tmp, 8, false, p->cut);
	emit_ldx(p->g, BPF_DW, BPF_REG_0, R_SCR, p->tmp);
	emit_jmp_imm(p->g, BPF_JEQ, BPF_REG_0, 0, p->done);
}

/* reg = the run-time address of _PyRuntime (or PyCode_Type) + add: the
 * fixed interpreter's, or this process's from sonde_pybase */
static void runtime_addr(PyGen *p, int reg, bool code_type, int64_t add)
{
	if (p->base < 0) {
		emit_ld_imm64(p->g, reg, (code_type ? p->l->code_type : p->l->runtime) + (uint64_t)add);
		return;
	}
	emit_ldx(p->g, BPF_DW, reg, R_SCR, p->base + (code_type ? 8 : 0));
	if (add)
		emit(p->g, I_ALU64_IMM(BPF_ADD, reg, (int32_t)add));
}

/* Where this process has its interpreter (PyLayout.files): its sonde_pybase
 * entry (key: the tgid at dst_off), else the fixed interpreter's
 * addresses, else nothing to walk */
static void gen_pybase(PyGen *p, int dst_off)
{
	Gen *g = p->g;
	int miss = label_new(g), have = label_new(g);
	emit_ld_map(g, BPF_REG_1, R_PYBASE, 0);
	emit_scratch_ptr(g, BPF_REG_2, dst_off);
	emit_call(g, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, p->l->fixed ? miss : p->done);
	emit_ldx(g, BPF_DW, BPF_REG_1, BPF_REG_0, 0);
	emit_ldx(g, BPF_DW, BPF_REG_2, BPF_REG_0, 8);
	emit_goto(g, have);
	label_place(g, miss);
	emit_ld_imm64(g, BPF_REG_1, p->l->runtime);
	emit_ld_imm64(g, BPF_REG_2, p->l->code_type);
	label_place(g, have);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, p->base);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_2, p->base + 8);
}

/* tstate of the current thread -> *tmp: pthread_getspecific(key) read
 * from the thread's TLS block */
static void gen_tstate(PyGen *p)
{
	Gen *g = p->g;
	/* an unreadable key, or one past glibc's first-level slots: a process
	 * without this CPython (sonde does not read the second-level keys) */
	runtime_addr(p, BPF_REG_3, false, p->l->tss_key);
	read_into(p, p->tmp, 4, false, p->done);
	emit_ldx(g, BPF_W, BPF_REG_0, R_SCR, p->tmp);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_0, 32, p->done);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 4));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_0, p->l->tls_block + 8));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, p->tmp + 8);
	emit_call(g, BPF_FUNC_get_current_task);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, p->l->task_fsbase));
	read_into(p, p->tmp, 8, true, p->cut);
	emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, p->tmp);
	emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, p->tmp + 8);
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_0));
	read_into(p, p->tmp, 8, false, p->cut);
	emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, p->tmp);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, p->done);
}

/* A str object's text (compact ASCII data, else its cached UTF-8) into
 * scratch dst (n bytes, NUL-terminated); the object's address is at src. */
static void gen_pystr(PyGen *p, int src, int dst, int n)
{
	Gen *g = p->g;
	int skip = label_new(g), ascii = label_new(g), copy = label_new(g);
	addr_from(p, src, p->l->str_state);
	read_into(p, p->tmp, 4, false, skip);
	emit_ldx(g, BPF_W, BPF_REG_0, R_SCR, p->tmp);
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_0, 0x60)); /* compact | ascii */
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0x60, ascii);
	addr_from(p, src, p->l->str_utf8);
	read_into(p, p->tmp, 8, false, skip);
	emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, p->tmp);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, skip);
	emit_goto(g, copy);
	label_place(g, ascii);
	addr_from(p, src, p->l->str_ascii_data);
	label_place(g, copy);
	emit_scratch_ptr(g, BPF_REG_1, dst);
	emit(g, I_MOV64_IMM(BPF_REG_2, n));
	emit_call(g, BPF_FUNC_probe_read_user_str);
	label_place(g, skip);
}

/* What printing needs of the code object (head at p->head) into
 * sonde_pycode under (pid | generation << 32, address): the key is new */
static void gen_cache_fill(PyGen *p)
{
	Gen *g = p->g;
	const PyLayout *l = p->l;
	int lt = label_new(g), small = label_new(g);
	emit_memzero(g, p->val, (int)sizeof(PyCodeInfo));
	emit_ldx(g, BPF_W, BPF_REG_0, R_SCR, p->head + l->co_firstlineno);
	emit_stx(g, BPF_W, R_SCR, BPF_REG_0, p->val + (int)offsetof(PyCodeInfo, firstlineno));
	gen_pystr(p, p->head + l->co_filename, p->val + (int)offsetof(PyCodeInfo, file), PYC_FILE);
	gen_pystr(p, p->head + l->co_qualname, p->val + (int)offsetof(PyCodeInfo, name), PYC_NAME);
	addr_from(p, p->head + l->co_linetable, l->bytes_size);
	read_into(p, p->tmp, 8, false, lt);
	emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, p->tmp);
	emit_stx(g, BPF_W, R_SCR, BPF_REG_2, p->val + (int)offsetof(PyCodeInfo, lt_size));
	emit_jmp_imm(g, BPF_JLE, BPF_REG_2, PYC_LT, small);
	emit(g, I_MOV64_IMM(BPF_REG_2, PYC_LT));
	label_place(g, small);
	addr_from(p, p->head + l->co_linetable, l->bytes_data);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_3, p->val + (int)offsetof(PyCodeInfo, lt_addr));
	emit_scratch_ptr(g, BPF_REG_1, p->val + (int)offsetof(PyCodeInfo, lt));
	emit_call(g, BPF_FUNC_probe_read_user);
	label_place(g, lt);
	emit_ld_map(g, BPF_REG_1, R_PYCODE, 0);
	emit_scratch_ptr(g, BPF_REG_2, p->key);
	emit_scratch_ptr(g, BPF_REG_3, p->val);
	emit(g, I_MOV64_IMM(BPF_REG_4, BPF_NOEXIST));
	emit_call(g, BPF_FUNC_map_update_elem);
}

/* A code object met for the first time (not in sonde_pylive): a new
 * generation, its names cached under it, then it is live.  Unless its
 * reference count says it is being freed (0 in code_dealloc, a free-list
 * link once freed: the frame that held it is being torn down): caching it
 * then would outlive it, and the frame gets generation 0.  r1 = the
 * generation (shifted to the high half) at `have`. */
static void gen_first_sight(PyGen *p, int dst_off, int have)
{
	Gen *g = p->g;
	int dying = label_new(g);
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, p->head);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, dying);
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_1, 32));
	emit_jmp_imm(g, BPF_JNE, BPF_REG_1, 0, dying);
	emit_ld_map_value(g, BPF_REG_1, R_CONTROL, CONTROL_PY_GEN);
	emit(g, I_MOV64_IMM(BPF_REG_2, 1));
	emit(g, ((struct bpf_insn){.code = BPF_STX | BPF_DW | BPF_ATOMIC, .dst_reg = BPF_REG_1,
				   .src_reg = BPF_REG_2, .imm = BPF_ADD | BPF_FETCH}));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, 1));
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_2, 32));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_2, p->gen);
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, dst_off);
	emit(g, I_ALU64_REG(BPF_OR, BPF_REG_1, BPF_REG_2));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, p->key);
	gen_cache_fill(p);
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, dst_off);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, p->key);
	emit_ld_map(g, BPF_REG_1, R_PYLIVE, 0);
	emit_scratch_ptr(g, BPF_REG_2, p->key);
	emit_scratch_ptr(g, BPF_REG_3, p->gen);
	emit(g, I_MOV64_IMM(BPF_REG_4, BPF_ANY));
	emit_call(g, BPF_FUNC_map_update_elem);
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, p->gen);
	emit_goto(g, have);
	label_place(g, dying);
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
}

/* Frame i's code object (address at p->key + 8) is known by its
 * generation: from sonde_pylive, else given now; it goes into the high
 * half of the frame's instruction word. */
static void gen_generation(PyGen *p, int i, int dst_off)
{
	Gen *g = p->g;
	int miss = label_new(g), have = label_new(g), word = dst_off + 24 + 16 * i;
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, dst_off);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, p->key);
	emit_ld_map(g, BPF_REG_1, R_PYLIVE, 0);
	emit_scratch_ptr(g, BPF_REG_2, p->key);
	emit_call(g, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, miss);
	emit_ldx(g, BPF_DW, BPF_REG_1, BPF_REG_0, 0);
	emit_goto(g, have);
	label_place(g, miss);
	gen_first_sight(p, dst_off, have);
	label_place(g, have);
	emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, word);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_2, 32));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_2, 32));
	emit(g, I_ALU64_REG(BPF_OR, BPF_REG_2, BPF_REG_1));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_2, word);
}

/* Frame i: the frame's address is at p->frame (0 ends the walk). */
static void gen_frame(PyGen *p, int i, int dst_off)
{
	Gen *g = p->g;
	const PyLayout *l = p->l;
	int bad = label_new(g), ok = label_new(g);
	emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, p->frame);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, p->done);
	/* only f_code .. prev_instr: fewer bytes copied per frame */
	int lo = l->fr_code, fr = p->tmp - lo;
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, lo));
	read_into(p, p->tmp, l->fr_instr + 8 - lo, false, p->cut);
	/* tmp now holds the frame; keep code and previous before reusing tmp */
	addr_from(p, fr + l->fr_code, 0);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_3, p->key + 8);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_3, dst_off + 16 + 16 * i);
	emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, fr + l->fr_instr);
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_3));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_0, -l->co_code));
	emit(g, I_ALU64_IMM(BPF_ARSH, BPF_REG_0, 1));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off + 24 + 16 * i);
	emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, fr + l->fr_previous);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, p->frame);
	read_into(p, p->head, l->co_head, false, bad);
	runtime_addr(p, BPF_REG_1, true, 0);
	emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, p->head + l->co_type);
	emit_jmp_reg(g, BPF_JEQ, BPF_REG_0, BPF_REG_1, ok);
	label_place(g, bad);
	emit_ld_imm64(g, BPF_REG_0, PYSTACK_BAD | (uint64_t)i);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off + 8);
	emit_goto(g, p->done);
	label_place(g, ok);
	emit(g, I_MOV64_IMM(BPF_REG_0, i + 1));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off + 8);
	gen_generation(p, i, dst_off);
}

static void gen_pystack_into(Gen *g, const Type *t, int dst_off)
{
	const PyLayout *l = g->sc->py;
	int mark = g->scratch_top;
	PyGen p = {g, l, scratch_alloc(g, 256), scratch_alloc(g, 8), scratch_alloc(g, l->co_head),
		   scratch_alloc(g, 16), scratch_alloc(g, (int)sizeof(PyCodeInfo)), scratch_alloc(g, 8),
		   l->nfiles ? scratch_alloc(g, 16) : -1, label_new(g), label_new(g)};
	emit_memzero(g, dst_off, t->size);
	emit_call(g, BPF_FUNC_get_current_pid_tgid);
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off);
	if (l->nfiles)
		gen_pybase(&p, dst_off);
	gen_tstate(&p);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, p.frame);
	follow(&p, p.frame, l->ts_cframe);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, p.frame);
	follow(&p, p.frame, l->cf_frame);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, p.frame);
	for (int i = 0; i < t->stack_depth; i++)
		gen_frame(&p, i, dst_off);
	emit_goto(g, p.done);
	label_place(g, p.cut);
	emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, dst_off + 8);
	emit_ld_imm64(g, BPF_REG_1, PYSTACK_CUT);
	emit(g, I_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_1));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off + 8);
	label_place(g, p.done);
	g->scratch_top = mark;
}

void py_gen_jstack_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	(void)dt;
	gen_pystack_into(g, e->type, dst_off);
	if (e->type->stack_native) /* D: the native frames after the Python ones */
		gen_stack_into(g, true, e->type->stack_depth, dst_off + pystack_size(e->type->stack_depth));
}
