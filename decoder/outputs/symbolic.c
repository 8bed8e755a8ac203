// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: an event's symbolic fields, as its print format prints them
 * (see symbolic.h).  Each function below follows the part of libtraceevent
 * 1.7's event-parse.c its comment names.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "symbolic.h"

/* The field a TEP_PRINT_FIELD argument names, or NULL. */
static struct tep_format_field *field_of(struct tep_event *event,
					 struct tep_print_arg *arg)
{
	if (arg->field.field)
		return arg->field.field;
	return tep_find_any_field(event, arg->field.name);
}

/*
 * Can @arg be evaluated here, reading at most one scalar field (*@field,
 * NULL before any)?  *@symbolic is set when it holds flags or symbols.
 */
static bool scan(struct tep_event *event, struct tep_print_arg *arg,
		 struct tep_format_field **field, bool *symbolic)
{
	struct tep_format_field *f;

	if (!arg)
		return true;
	switch (arg->type) {
	case TEP_PRINT_ATOM:
		return true;
	case TEP_PRINT_FIELD:
		f = field_of(event, arg);
		if (!f || (*field && *field != f) ||
		    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
		    f->size < 1 || f->size > 8)
			return false;
		*field = f;
		return true;
	case TEP_PRINT_TYPE:
		return scan(event, arg->typecast.item, field, symbolic);
	case TEP_PRINT_OP:
		return strcmp(arg->op.op, "[") &&
		       scan(event, arg->op.left, field, symbolic) &&
		       scan(event, arg->op.right, field, symbolic);
	case TEP_PRINT_FLAGS:
		*symbolic = true;
		return scan(event, arg->flags.field, field, symbolic);
	case TEP_PRINT_SYMBOL:
		*symbolic = true;
		return scan(event, arg->symbol.field, field, symbolic);
	default:
		return false;
	}
}

/* Does @arg print a string (print_str_arg()), not a number? */
static bool prints_string(const struct tep_print_arg *arg)
{
	switch (arg->type) {
	case TEP_PRINT_FLAGS:
	case TEP_PRINT_SYMBOL:
		return true;
	case TEP_PRINT_OP:
		return !strcmp(arg->op.op, "?") && arg->op.right &&
		       arg->op.right->type == TEP_PRINT_OP &&
		       prints_string(arg->op.right->op.left) &&
		       prints_string(arg->op.right->op.right);
	case TEP_PRINT_ATOM:	/* a quoted string ("R"), or a number */
		return !isdigit((unsigned char)arg->atom.atom[0]);
	default:
		return false;
	}
}

/* Is @f listed in @out[0..n)? */
static bool listed(const struct symbolic_field *out, int n,
		   const struct tep_format_field *f)
{
	while (n--)
		if (out[n].field == f)
			return true;
	return false;
}

int symbolic_find(struct tep_event *event, struct symbolic_field *out)
{
	struct tep_print_arg *arg, *next;
	struct tep_format_field *f, *g;
	bool symbolic, more;
	int n = 0, nr;

	if (event->flags & TEP_EVENT_FL_FAILED)
		return 0;
	for (arg = event->print_fmt.args; arg && n < SYMBOLIC_MAX;
	     arg = next) {
		f = NULL;
		symbolic = false;
		next = arg->next;
		if (!prints_string(arg) || !scan(event, arg, &f, &symbolic) ||
		    !f)
			continue;
		/* The run: the arguments after it that print @f alone. */
		for (nr = 1; next; next = next->next, nr++) {
			g = NULL;
			more = false;
			if (!prints_string(next) ||
			    !scan(event, next, &g, &more) || g != f)
				break;
			symbolic |= more;
		}
		if (symbolic && !listed(out, n, f))
			out[n++] = (struct symbolic_field){ f, arg, nr };
	}
	return n;
}

/* A cast of @val to @type, as eval_type_str() does for integer types. */
static unsigned long long cast(unsigned long long val, const char *type)
{
	bool is_unsigned = !strncmp(type, "unsigned ", 9);
	int bits;

	if (is_unsigned)
		type += 9;
	if (!strcmp(type, "char") || !strcmp(type, "u8") ||
	    !strcmp(type, "s8"))
		bits = 8;
	else if (!strcmp(type, "short") || !strcmp(type, "u16") ||
		 !strcmp(type, "s16"))
		bits = 16;
	else if (!strcmp(type, "int") || !strcmp(type, "u32") ||
		 !strcmp(type, "s32"))
		bits = 32;
	else
		return val;	/* long, pointers, typedefs: as they are */
	if (type[0] == 'u')
		is_unsigned = true;
	val &= (1ULL << bits) - 1;
	if (!is_unsigned && type[0] != 'c' && (val & (1ULL << (bits - 1))))
		val |= ~0ULL << bits;
	return val;
}

/* A binary or unary operator of eval_num_arg()'s default_op. */
static unsigned long long op(const char *o, unsigned long long l,
			     unsigned long long r)
{
	switch (o[0]) {
	case '!':
		return o[1] == '=' ? l != r : !r;
	case '~':
		return ~r;
	case '|':
		return o[1] ? l || r : (l | r);
	case '&':
		return o[1] ? l && r : (l & r);
	case '^':
		return l ^ r;
	case '<':
		return o[1] == '<' ? l << r : o[1] == '=' ? l <= r : l < r;
	case '>':
		return o[1] == '>' ? l >> r : o[1] == '=' ? l >= r : l > r;
	case '=':
		return l == r;
	case '-':
		return l - r;
	case '+':
		return l + r;
	case '*':
		return l * r;
	case '/':
		return r ? l / r : 0;
	case '%':
		return r ? l % r : 0;
	default:
		return 0;
	}
}

/* eval_num_arg() over what scan() accepts. */
static unsigned long long eval(struct tep_event *event,
			       const struct tep_record *record,
			       struct tep_print_arg *arg)
{
	struct tep_format_field *f;

	if (!arg)
		return 0;
	switch (arg->type) {
	case TEP_PRINT_ATOM:
		return strtoull(arg->atom.atom, NULL, 0);
	case TEP_PRINT_FIELD:
		f = field_of(event, arg);
		return tep_read_number(event->tep,
				       (char *)record->data + f->offset,
				       f->size);
	case TEP_PRINT_TYPE:
		return cast(eval(event, record, arg->typecast.item),
			    arg->typecast.type);
	case TEP_PRINT_OP:
		if (!strcmp(arg->op.op, "?"))
			return eval(event, record, arg->op.left) ?
			       eval(event, record, arg->op.right->op.left) :
			       eval(event, record, arg->op.right->op.right);
		return op(arg->op.op, eval(event, record, arg->op.left),
			  eval(event, record, arg->op.right));
	default:
		return 0;
	}
}

/* eval_flag(): a flag's value as libtraceevent stored it; -1 unknown. */
static long long flag_value(const char *value)
{
	return isdigit((unsigned char)value[0]) ?
	       (long long)strtoull(value, NULL, 0) : -1;
}

/* print_str_arg() for TEP_PRINT_FLAGS. */
static void put_flags(struct trace_seq *s, const struct tep_print_arg *arg,
		      long long val)
{
	struct tep_print_flag_sym *flag;
	bool printed = false;
	long long fval;

	for (flag = arg->flags.flags; flag; flag = flag->next) {
		fval = flag_value(flag->value);
		if (!val && fval < 0) {
			trace_seq_puts(s, flag->str);
			break;
		}
		if (fval > 0 && (val & fval) == fval) {
			if (printed && arg->flags.delim)
				trace_seq_puts(s, arg->flags.delim);
			trace_seq_puts(s, flag->str);
			printed = true;
			val &= ~fval;
		}
	}
	if (val) {
		if (printed && arg->flags.delim)
			trace_seq_puts(s, arg->flags.delim);
		trace_seq_printf(s, "0x%llx", val);
	}
}

/* print_str_arg() over what prints_string() accepts. */
static void put_arg(struct trace_seq *s, struct tep_event *event,
		    const struct tep_record *record, struct tep_print_arg *arg)
{
	struct tep_print_flag_sym *sym;
	long long val;

	switch (arg->type) {
	case TEP_PRINT_ATOM:
		trace_seq_puts(s, arg->atom.atom);
		break;
	case TEP_PRINT_FLAGS:
		put_flags(s, arg, eval(event, record, arg->flags.field));
		break;
	case TEP_PRINT_SYMBOL:
		val = eval(event, record, arg->symbol.field);
		for (sym = arg->symbol.symbols; sym; sym = sym->next)
			if (val == flag_value(sym->value))
				break;
		if (sym)
			trace_seq_puts(s, sym->str);
		else
			trace_seq_printf(s, "0x%llx", val);
		break;
	case TEP_PRINT_OP:	/* "?": prints_string() checked it */
		put_arg(s, event, record,
			eval(event, record, arg->op.left) ?
			arg->op.right->op.left : arg->op.right->op.right);
		break;
	default:
		break;
	}
}

bool symbolic_print(struct trace_seq *s, struct tep_event *event,
		    const struct symbolic_field *sf,
		    const struct tep_record *record)
{
	struct tep_print_arg *arg = sf->first;
	int i;

	if (sf->field->offset + sf->field->size > record->size)
		return false;
	for (i = 0; i < sf->nr; i++, arg = arg->next)
		put_arg(s, event, record, arg);
	return true;
}

/* Does @arg, or an argument inside it, cast @field to a pointer? */
static bool casts_to_pointer(struct tep_event *event, struct tep_print_arg *arg,
			     const struct tep_format_field *field)
{
	struct tep_print_arg *item;

	for (; arg; arg = arg->next) {
		if (arg->type == TEP_PRINT_TYPE && strchr(arg->typecast.type, '*')) {
			for (item = arg->typecast.item;
			     item && item->type == TEP_PRINT_TYPE;
			     item = item->typecast.item)
				;
			if (item && item->type == TEP_PRINT_FIELD &&
			    field_of(event, item) == field)
				return true;
		}
		if (arg->type == TEP_PRINT_OP &&
		    (casts_to_pointer(event, arg->op.left, field) ||
		     casts_to_pointer(event, arg->op.right, field)))
			return true;
	}
	return false;
}

bool symbolic_is_address(struct tep_event *event,
			 const struct tep_format_field *field)
{
	return casts_to_pointer(event, event->print_fmt.args, field);
}
