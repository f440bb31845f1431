/* `vmsuite completion bash|zsh`: prints a shell completion script made from the command table
 * and each command's option table (the rows `--help` shows) and values() (core/options.h), so
 * that it cannot list an option the parser does not take or miss one it does. No kernel
 * paths. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "core/util.h"
#include "core/version.h"

static const struct vms_cli_option completion_options[] = {
    {NULL, 0, VMS_CLI_FLAG, NULL, NULL, 0, 0},
};

static char *completion_values(const struct vms_cli_option *o)
{
	return o ? NULL : vms_xstrdup("bash zsh");
}

const struct vms_cli_usage vms_completion_usage = {
    .operands = "bash|zsh",
    .about = "Prints a completion script for the shell: commands, each command's options, and\n"
             "the values vmsuite knows (formats, machine profiles, workloads, latency presets,\n"
             "metric names; files and directories where a path goes). It is made from the same\n"
             "option tables as the help, so it matches this vmsuite. `cmake --install` puts\n"
             "both scripts where bash-completion and zsh look for them.\n",
    .options = completion_options,
    .more = "Examples:\n"
            "  source <(vmsuite completion bash)         # this bash session\n"
            "  vmsuite completion zsh > ~/.zfunc/_vmsuite  # a directory in zsh's $fpath\n"
            "\nExit status: 0 ok; 129 usage error.\n",
    .values = completion_values,
};

void vms_words_add(char **words, const char *word)
{
	char *next = vms_xasprintf("%s%s%s", *words ? *words : "", *words ? " " : "", word);

	free(*words);
	*words = next;
}

/* What an argument name of lab's help stands for: "a|b|c" its words, DIR a directory,
 * FILE or IMAGE a file; a new string or NULL. */
static char *lab_values(const char *arg_name)
{
	char *words, *bar;

	if (strchr(arg_name, '|')) {
		words = vms_xstrdup(arg_name);
		while ((bar = strchr(words, '|')))
			*bar = ' ';
		return words;
	}
	if (!strcmp(arg_name, "DIR"))
		return vms_xstrdup(VMS_CLI_DIRS);
	if (!strcmp(arg_name, "FILE") || !strcmp(arg_name, "IMAGE"))
		return vms_xstrdup(VMS_CLI_FILES);
	return NULL;
}

/* What completes the value of row o of command c (o NULL: its operands): a new string, or
 * NULL. */
static char *values_of(const struct vms_command *c, const struct vms_cli_option *o)
{
	if (c->usage && c->usage->values)
		return c->usage->values(o);
	if (!c->usage && o) /* lab */
		return o->arg_name ? lab_values(o->arg_name) : NULL;
	return NULL;
}

/* The output of `vmsuite lab --help` (the lab script's), a new string; NULL when it cannot
 * be had (the script is missing: lab then completes no options). */
static char *lab_help(void)
{
	char *buf = NULL, chunk[4096];
	size_t len = 0;
	ssize_t n;
	int fd[2], status;
	pid_t pid;

	fflush(stdout);
	if (pipe(fd))
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		dup2(fd[1], STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		close(fd[0]);
		close(fd[1]);
		_exit(vms_lab_help()); /* returns only when it could not exec the script */
	}
	close(fd[1]);
	while ((n = read(fd[0], chunk, sizeof(chunk))) > 0 || (n < 0 && errno == EINTR)) {
		if (n < 0)
			continue;
		buf = vms_xrealloc(buf, len + (size_t)n + 1);
		memcpy(buf + len, chunk, (size_t)n);
		len += (size_t)n;
		buf[len] = '\0';
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* lab's options from its help, whose option lines read "  -o, --output DIR   help" or
 * "  --name [ARG]   help" (the script's own table): into rows[VMS_CLI_MAX_ROWS], pointing
 * into text, which this cuts into strings. */
static void lab_rows(char *text, struct vms_cli_option *rows)
{
	char *line, *next, *p;
	size_t n = 0;

	for (line = text; line && *line && n + 1 < VMS_CLI_MAX_ROWS; line = next) {
		struct vms_cli_option o = {.arg = VMS_CLI_FLAG, .repeatable = 1};

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(line, "  -", 3))
			continue;
		p = line + 2;
		if (p[1] != '-' && p[2] == ',' && p[3] == ' ') {
			o.short_name = p[1];
			p += 4;
		}
		if (strncmp(p, "--", 2) || !p[2])
			continue;
		o.name = p += 2;
		p += strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789-");
		if (*p == ' ' && p[1] != ' ' && p[1]) {
			*p++ = '\0';
			o.arg = VMS_CLI_REQUIRED;
			o.arg_name = p;
			p += strcspn(p, " ");
		}
		if (*p && *p != ' ')
			continue; /* not an option line after all */
		if (*p)
			*p++ = '\0';
		o.help = p + strspn(p, " ");
		rows[n++] = o;
	}
	memset(&rows[n], 0, sizeof(rows[n]));
}

/* The rows of command c into rows[VMS_CLI_MAX_ROWS]: its table's or, for lab, those of its
 * help (*lab_text holds them; free it). */
static void command_rows(const struct vms_command *c, struct vms_cli_option *rows, char **lab_text)
{
	*lab_text = NULL;
	memset(rows, 0, sizeof(*rows));
	if (c->usage)
		vms_cli_rows(c->usage, rows);
	else if ((*lab_text = lab_help()))
		lab_rows(*lab_text, rows);
}

/* The commands main() dispatches: the table, then help and version (cli/vmsuite.c). */
static char *command_words(void)
{
	const struct vms_command *c;
	char *words = NULL;

	for (c = vms_commands; c->name; c++)
		vms_words_add(&words, c->name);
	vms_words_add(&words, "help");
	vms_words_add(&words, "version");
	return words;
}

/* s single-quoted for either shell: 'it'\''s' */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The path kind a values() string names ("file", "dir", "result"), or NULL for words. */
static const char *path_kind(const char *v)
{
	if (!v)
		return NULL;
	if (!strcmp(v, VMS_CLI_FILES))
		return "file";
	if (!strcmp(v, VMS_CLI_DIRS))
		return "dir";
	if (!strcmp(v, VMS_CLI_RESULTS))
		return "result";
	return NULL;
}

/* "--name|-n|--old-name" of row o of rows (a bash case pattern): its old spellings too, so
 * that their values complete while they last */
static void put_pattern(FILE *f, const struct vms_cli_option *rows, const struct vms_cli_option *o)
{
	const struct vms_cli_option *a;

	fprintf(f, "--%s", o->name);
	if (o->short_name)
		fprintf(f, "|-%c", o->short_name);
	for (a = rows; a->name; a++)
		if (a->arg == VMS_CLI_ALIAS && !strcmp(a->arg_name, o->name))
			fprintf(f, "|--%s", a->name);
}

/* The bash arm of one command: opts, then per option that takes a value what completes it. */
static void bash_command(FILE *f, const struct vms_command *c)
{
	struct vms_cli_option rows[VMS_CLI_MAX_ROWS];
	const struct vms_cli_option *o;
	char *v, *lab_text;

	command_rows(c, rows, &lab_text);
	fprintf(f, "\t%s)\n\t\topts='", c->name);
	for (o = rows; o->name; o++) {
		if (o->arg == VMS_CLI_ALIAS)
			continue; /* not offered: they go in the next release */
		fprintf(f, "--%s ", o->name);
		if (o->short_name)
			fprintf(f, "-%c ", o->short_name);
	}
	fputs("--help -h'\n", f);
	fputs("\t\tcase $opt in\n", f);
	for (o = rows; o->name; o++) {
		if (o->arg == VMS_CLI_FLAG || o->arg == VMS_CLI_ALIAS)
			continue;
		v = values_of(c, o);
		fputs("\t\t", f);
		put_pattern(f, rows, o);
		fputs(")\n\t\t\t", f);
		if (o->arg == VMS_CLI_OPTIONAL)
			fputs("optional=1 ", f);
		if (path_kind(v))
			fprintf(f, "kind=%s", path_kind(v));
		else if (v)
			fputs("kind=words words=", f), put_quoted(f, v);
		else
			fputs("kind=none", f);
		fputs(" ;;\n", f);
		free(v);
	}
	free(lab_text);
	fputs("\t\tesac\n", f);
	v = values_of(c, NULL);
	fputs("\t\t", f);
	if (path_kind(v))
		fprintf(f, "operands=%s", path_kind(v));
	else if (v)
		fputs("operands=words operand_words=", f), put_quoted(f, v);
	else
		fputs("operands=", f);
	fputs(" ;;\n", f);
	free(v);
}

static void bash_script(FILE *f)
{
	const struct vms_command *c;
	char *cmds = command_words();

	fprintf(
	    f,
	    "# bash completion for vmsuite %s, made by `vmsuite completion bash` from its option\n"
	    "# tables: regenerate it rather than edit it.\n"
	    "\n"
	    "# _vmsuite_paths KIND WORD: the files (file), directories (dir) or result files\n"
	    "# and directories (result) that start with WORD, into COMPREPLY\n"
	    "_vmsuite_paths()\n"
	    "{\n"
	    "\tlocal IFS=$'\\n'\n"
	    "\tcase $1 in\n"
	    "\tdir) COMPREPLY=($(compgen -d -- \"$2\")) ;;\n"
	    "\tresult) COMPREPLY=($(compgen -f -X '!*.json' -- \"$2\") $(compgen -d -- "
	    "\"$2\")) ;;\n"
	    "\t*) COMPREPLY=($(compgen -f -- \"$2\")) ;;\n"
	    "\tesac\n"
	    "\tcompopt -o filenames 2>/dev/null\n"
	    "\treturn 0\n"
	    "}\n"
	    "\n"
	    "_vmsuite()\n"
	    "{\n"
	    "\tlocal cur=${COMP_WORDS[COMP_CWORD]} opt= i=$((COMP_CWORD - 1))\n"
	    "\tlocal cmd opts kind= words= optional= operands= operand_words=\n"
	    "\tCOMPREPLY=()\n"
	    "\tif ((COMP_CWORD == 1)); then\n"
	    "\t\tif [[ $cur == -* ]]; then\n"
	    "\t\t\tCOMPREPLY=($(compgen -W '--help --version' -- \"$cur\"))\n"
	    "\t\telse\n"
	    "\t\t\tCOMPREPLY=($(compgen -W ",
	    VMS_VERSION);
	put_quoted(f, cmds);
	fputs(" -- \"$cur\"))\n"
	      "\t\tfi\n"
	      "\t\treturn 0\n"
	      "\tfi\n"
	      "\tcmd=${COMP_WORDS[1]}\n"
	      "\t# --opt=VALUE: bash splits it at the '=' (COMP_WORDBREAKS)\n"
	      "\tif [[ $cur == = ]]; then\n"
	      "\t\tcur= opt=${COMP_WORDS[i]}\n"
	      "\telif ((i > 1)) && [[ ${COMP_WORDS[i]} == = ]]; then\n"
	      "\t\topt=${COMP_WORDS[i - 1]}\n"
	      "\telif ((i > 1)); then\n"
	      "\t\topt=${COMP_WORDS[i]}\n"
	      "\tfi\n"
	      "\tcase $cmd in\n",
	      f);
	free(cmds);
	for (c = vms_commands; c->name; c++)
		bash_command(f, c);
	/* help is not in the table (cli/vmsuite.c handles it) */
	fputs("\thelp)\n\t\topts='--help -h'\n\t\toperands=words operand_words=", f);
	cmds = command_words();
	put_quoted(f, cmds);
	free(cmds);
	fputs(" ;;\n"
	      "\t*) return 0 ;;\n"
	      "\tesac\n"
	      "\tif [[ -n $kind && ! ($optional && $cur == -*) ]]; then\n"
	      "\t\tcase $kind in\n"
	      "\t\twords) COMPREPLY=($(compgen -W \"$words\" -- \"$cur\")) ;;\n"
	      "\t\tnone) ;;\n"
	      "\t\t*) _vmsuite_paths \"$kind\" \"$cur\" ;;\n"
	      "\t\tesac\n"
	      "\t\t[[ -z $optional ]] && return 0\n"
	      "\tfi\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY+=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telif [[ $operands == words ]]; then\n"
	      "\t\tCOMPREPLY+=($(compgen -W \"$operand_words\" -- \"$cur\"))\n"
	      "\telif [[ -n $operands && -z $optional ]]; then\n"
	      "\t\t_vmsuite_paths \"$operands\" \"$cur\"\n"
	      "\tfi\n"
	      "\treturn 0\n"
	      "}\n"
	      "complete -F _vmsuite vmsuite\n",
	      f);
}

/* s for a zsh _arguments spec inside single quotes, its lines joined by spaces, with the
 * characters special there (chars) behind a backslash */
static void put_zsh(FILE *f, const char *s, const char *chars)
{
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else if (*s == '\n')
			fputc(' ', f);
		else if (*s == '\\' || strchr(chars, *s))
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	}
}

/* The zsh action for a values() string: _files, _files -/, a word list, or nothing. */
static void put_zsh_action(FILE *f, const char *v)
{
	const char *kind = path_kind(v);

	if (kind && !strcmp(kind, "dir"))
		fputs("_files -/", f);
	else if (kind && !strcmp(kind, "result"))
		fputs("_files -g \"*.json\"", f);
	else if (kind)
		fputs("_files", f);
	else if (v)
		fputc('(', f), put_zsh(f, v, "():"), fputc(')', f);
	else
		fputc(' ', f); /* no candidates: the message alone */
}

/* One _arguments spec of row o spelt as name (-w or --workload), on its own line. */
static void zsh_spec(FILE *f, const struct vms_command *c, const struct vms_cli_option *o,
                     int is_short)
{
	char *v;

	fputs(" \\\n\t\t\t'", f);
	if (o->repeatable)
		fputc('*', f);
	else if (o->short_name)
		fprintf(f, "(-%c --%s)", o->short_name, o->name);
	else
		fprintf(f, "(--%s)", o->name);
	if (is_short)
		fprintf(f, "-%c%s", o->short_name, o->arg == VMS_CLI_FLAG ? "" : "+");
	else
		fprintf(f, "--%s%s", o->name,
		        o->arg == VMS_CLI_REQUIRED   ? "="
		        : o->arg == VMS_CLI_OPTIONAL ? "=-"
		                                     : "");
	fputc('[', f);
	put_zsh(f, o->help, "[]");
	fputc(']', f);
	if (o->arg != VMS_CLI_FLAG) {
		v = values_of(c, o);
		fputs(o->arg == VMS_CLI_OPTIONAL ? "::" : ":", f);
		put_zsh(f, o->arg_name, ":");
		fputc(':', f);
		put_zsh_action(f, v);
		free(v);
	}
	fputc('\'', f);
}

/* The _arguments call of one command. */
static void zsh_command(FILE *f, const struct vms_command *c)
{
	struct vms_cli_option rows[VMS_CLI_MAX_ROWS];
	const struct vms_cli_option *o;
	char *v, *lab_text;

	command_rows(c, rows, &lab_text);
	fprintf(f, "\t\t%s)\n\t\t\t_arguments", c->name);
	fputs(" \\\n\t\t\t'(- *)'{-h,--help}'[show the help]'", f);
	for (o = rows; o->name; o++) {
		if (o->arg == VMS_CLI_ALIAS)
			continue; /* not offered: they go in the next release */
		if (o->short_name)
			zsh_spec(f, c, o, 1);
		zsh_spec(f, c, o, 0);
	}
	free(lab_text);
	v = values_of(c, NULL);
	if (v) {
		fputs(" \\\n\t\t\t'*:", f);
		put_zsh(f, c->usage && c->usage->operands ? c->usage->operands : "argument", ":");
		fputc(':', f);
		put_zsh_action(f, v);
		fputc('\'', f);
	}
	free(v);
	fputs(" && ret=0\n\t\t\t;;\n", f);
}

static void zsh_script(FILE *f)
{
	const struct vms_command *c;
	char *cmds;

	fprintf(
	    f,
	    "#compdef vmsuite\n"
	    "# zsh completion for vmsuite %s, made by `vmsuite completion zsh` from its option\n"
	    "# tables: regenerate it rather than edit it.\n"
	    "\n"
	    "_vmsuite()\n"
	    "{\n"
	    "\tlocal curcontext=$curcontext state line ret=1\n"
	    "\tlocal -a commands\n"
	    "\ttypeset -A opt_args\n"
	    "\n"
	    "\t_arguments -C \\\n"
	    "\t\t'(- *)--help[show the help]' \\\n"
	    "\t\t'(- *)--version[show the version]' \\\n"
	    "\t\t'1:command:->command' \\\n"
	    "\t\t'*::argument:->argument' && return 0\n"
	    "\tcase $state in\n"
	    "\tcommand)\n"
	    "\t\tcommands=(",
	    VMS_VERSION);
	for (c = vms_commands; c->name; c++) {
		fputs("\n\t\t\t'", f);
		put_zsh(f, c->name, ":");
		fputc(':', f);
		put_zsh(f, c->summary, "");
		fputc('\'', f);
	}
	fputs("\n\t\t\t'help:show the help of vmsuite or of a command'"
	      "\n\t\t\t'version:show the version'"
	      "\n\t\t)\n"
	      "\t\t_describe -t commands 'vmsuite command' commands && ret=0\n"
	      "\t\t;;\n"
	      "\targument)\n"
	      "\t\tcurcontext=${curcontext%:*:*}:vmsuite-$words[1]:\n"
	      "\t\tcase $words[1] in\n",
	      f);
	for (c = vms_commands; c->name; c++)
		zsh_command(f, c);
	cmds = command_words();
	fputs("\t\thelp)\n\t\t\t_arguments '1:command:(", f);
	put_zsh(f, cmds, "():");
	fputs(")' && ret=0\n\t\t\t;;\n", f);
	free(cmds);
	fputs("\t\tesac\n"
	      "\t\t;;\n"
	      "\tesac\n"
	      "\treturn ret\n"
	      "}\n"
	      "\n"
	      "_vmsuite \"$@\"\n",
	      f);
}

/* The one operand of `completion` (a vms_cli_handler). */
static int completion_option(void *ctx, const struct vms_cli_option *opt, const char *val,
                             char *err, size_t errlen)
{
	const char **shell = ctx;

	(void)opt; /* no options */
	if (*shell) {
		snprintf(err, errlen, "one shell at a time ('%s' and '%s')", *shell, val);
		return -EINVAL;
	}
	if (strcmp(val, "bash") && strcmp(val, "zsh")) {
		snprintf(err, errlen, "no completion for '%s' (bash or zsh)", val);
		return -EINVAL;
	}
	*shell = val;
	return 0;
}

int cmd_completion(int argc, char **argv)
{
	const struct vms_command *self = vms_command_find("completion");
	const char *shell = NULL;
	int ret;

	if ((ret = vms_cli_parse(self->name, self->usage, argc, argv, completion_option, &shell)))
		return ret;
	if (!shell)
		return vms_usage_error(self, "which shell? (vmsuite completion bash|zsh)");
	if (!strcmp(shell, "bash"))
		bash_script(stdout);
	else
		zsh_script(stdout);
	return 0;
}
