package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

// withAgentTasks wraps a task command of one agent's (--agent, checked
// before the vault is opened). First it warns the agent when another
// agent holds its focused task (a merge of two clones' claims settled it
// to the other, or the other took it over): see app.App.FocusedTask,
// whose sync brings the index up to date for the command too, so fn is
// told synced (its use case need not sync again) unless that failed.
func (sh *shell) withAgentTasks(fn func(ctx context.Context, cmd *cli.Command, a *app.App, agent string, synced bool) error) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		agent, err := sh.agentOf(cmd)
		if err != nil {
			return err
		}
		return sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			// An error here is left for the command's own call to report
			// (it syncs again): start, for one, works without a focus.
			f, err := a.Tasks().Focused(ctx, app.TaskFocusRequest{Agent: agent})
			if err == nil && f.Notice != "" && !sh.quiet {
				fmt.Fprintf(sh.stderr, "warning: %s\n", f.Notice)
			}
			return fn(ctx, cmd, a, agent, err == nil)
		})(ctx, cmd)
	}
}

// optionalArg returns the one optional argument ("" when none).
func optionalArg(cmd *cli.Command, what string) (string, error) {
	if cmd.Args().Len() > 1 {
		return "", usagef("%s takes at most one %s, got %d arguments", cmd.Name, what, cmd.Args().Len())
	}
	return cmd.Args().First(), nil
}

// newTaskFlags are the flags of the commands that write a new task.
func newTaskFlags() []cli.Flag {
	return []cli.Flag{jsonFlag(), agentFlag(),
		&cli.StringFlag{Name: "priority", Usage: "`P`: high, medium (the default) or low"},
		&cli.StringSliceFlag{Name: "depends-on", Usage: "a `TASK` this one waits for (repeat for several)"},
		&cli.StringFlag{Name: "description", Usage: "what the task is about, `TEXT` (the note's body before its log)"},
		&cli.BoolFlag{Name: "stdin", Usage: "read the description from standard input"},
	}
}

// newTask is the new task a command's TITLE and flags say, for agent
// ("" for add, which changes no focus).
func (sh *shell) newTask(cmd *cli.Command, agent string) (app.NewTaskRequest, error) {
	title, err := oneArg(cmd, "TITLE")
	if err != nil {
		return app.NewTaskRequest{}, err
	}
	n := app.NewTaskRequest{Agent: agent, Title: title, Parent: cmd.String("parent"), Priority: cmd.String("priority"),
		DependsOn: cmd.StringSlice("depends-on")}
	n.Description, err = sh.flagOrStdin(cmd, "description")
	return n, err
}

func taskCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "task",
		Usage: "a task tree kept as notes: one focused task per agent, a log of decisions, its context",
		Description: "Tasks are notes (type: task) with status, priority, parent: \"[[Task]]\" and depends_on in\n" +
			"frontmatter, and a '## Log' of dated events. TASK is a path or a name, resolved as a [[wikilink]]\n" +
			"is. Each agent (--agent, or VAULTMEM_AGENT; default 'default') has its own focus under\n" +
			".vaultmem/state/focus/; a subagent 'a/b' without one reads a's. Every command takes --json.",
		Commands: []*cli.Command{
			taskAddCommand(sh), taskSpawnCommand(sh), taskStartCommand(sh), taskDoneCommand(sh), taskBlockCommand(sh), taskEventCommand(sh), taskFocusCommand(sh), taskTreeCommand(sh), taskReadyCommand(sh), taskContextCommand(sh),
		},
	}
}

func taskAddCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "add", Usage: "add a task", ArgsUsage: "TITLE",
		Description: "Writes <tasks folder>/TITLE.md, status todo. With --json: {path, name, parent, priority, depends_on}.",
		Flags:       append(newTaskFlags(), &cli.StringFlag{Name: "parent", Usage: "the parent `TASK`"}),
		Action: sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			n, err := sh.newTask(cmd, "")
			if err != nil {
				return err
			}
			added, err := a.Tasks().Add(ctx, n)
			if err != nil {
				return err
			}
			return sh.out(cmd, added, added.Path)
		}),
	}
}

func taskSpawnCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "spawn", Usage: "add a child of the focused task, and focus it", ArgsUsage: "TITLE",
		Description: "With --json: {path, name, parent, priority, depends_on, focus}.",
		Flags:       newTaskFlags(),
		Action: sh.withAgentTasks(func(ctx context.Context, cmd *cli.Command, a *app.App, agent string, synced bool) error {
			n, err := sh.newTask(cmd, agent)
			if err != nil {
				return err
			}
			n.NoSync = synced
			added, err := a.Tasks().Spawn(ctx, n)
			if err != nil {
				return err
			}
			return sh.out(cmd, added, added.Path+" (focused, doing)")
		}),
	}
}

func taskStartCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "start", Usage: "focus a task: status doing, held by this agent", ArgsUsage: "TASK",
		Description: "Refused (exit 3, naming the holder) when another agent holds it, or when it is done,\n" +
			"unless --force. With --json: {path, agent, focus, took_from}.",
		Flags: []cli.Flag{jsonFlag(), agentFlag(), &cli.BoolFlag{Name: "force", Usage: "take it from the agent holding it, or reopen it when done"}},
		Action: sh.withAgentTasks(func(ctx context.Context, cmd *cli.Command, a *app.App, agent string, synced bool) error {
			ref, err := oneArg(cmd, "TASK")
			if err != nil {
				return err
			}
			res, err := a.Tasks().Start(ctx, app.StartTaskRequest{Agent: agent, Task: ref, Force: cmd.Bool("force"), NoSync: synced})
			if err != nil {
				return err
			}
			line := "started " + res.Path + " (agent " + agent + ")"
			if res.TookFrom != "" {
				line += ", taken from " + res.TookFrom
			}
			return sh.out(cmd, res, line)
		}),
	}
}

func taskDoneCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "done", Usage: "finish the focused task (or TASK); the focus moves to its parent", ArgsUsage: "[TASK]",
		Description: "Refused (exit 3) while it has children not done, unless --force.\n" +
			"With --json: {done: path, focus: path or null}.",
		Flags: []cli.Flag{jsonFlag(), agentFlag(), &cli.BoolFlag{Name: "force", Usage: "finish it even with children not done"}},
		Action: sh.withAgentTasks(func(ctx context.Context, cmd *cli.Command, a *app.App, agent string, synced bool) error {
			ref, err := optionalArg(cmd, "TASK")
			if err != nil {
				return err
			}
			res, err := a.Tasks().Finish(ctx, app.FinishTaskRequest{Agent: agent, Task: ref, Force: cmd.Bool("force"), NoSync: synced})
			if err != nil {
				return err
			}
			line := "done " + res.Done + "; focus: none"
			if res.Focus != nil {
				line = "done " + res.Done + "; focus: " + *res.Focus
			}
			return sh.out(cmd, res, line)
		}),
	}
}

func taskBlockCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "block", Usage: "mark the focused task (or TASK) blocked, logging why", ArgsUsage: "[TASK]",
		Description: "With --json: {path, type, time, line, agent}.",
		Flags:       []cli.Flag{jsonFlag(), agentFlag(), &cli.StringFlag{Name: "reason", Required: true, Usage: "what blocks it, `TEXT`"}},
		Action: sh.withAgentTasks(func(ctx context.Context, cmd *cli.Command, a *app.App, agent string, synced bool) error {
			ref, err := optionalArg(cmd, "TASK")
			if err != nil {
				return err
			}
			res, err := a.Tasks().Block(ctx, app.BlockTaskRequest{Agent: agent, Task: ref, Reason: cmd.String("reason"), NoSync: synced})
			if err != nil {
				return err
			}
			return sh.out(cmd, res, "blocked "+res.Path)
		}),
	}
}

func taskEventCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "event", Usage: "append a decision, note, blocker or milestone to a task's log", ArgsUsage: "[TEXT...]",
		Description: "Appends to the focused task's log (or --task's). The text is the arguments, or standard\n" +
			"input (read when piped, or with --stdin): pipe long text, logs or analyses.\n" +
			"With --json: {path, type, time, line, agent}.",
		Flags: []cli.Flag{jsonFlag(), agentFlag(),
			&cli.StringFlag{Name: "type", Required: true, Usage: "`TYPE`: decision, note, blocker or milestone"},
			&cli.StringFlag{Name: "task", Usage: "the `TASK` (default: the focused one)"},
			&cli.BoolFlag{Name: "stdin", Usage: "read the text from standard input"}},
		Action: sh.withAgentTasks(func(ctx context.Context, cmd *cli.Command, a *app.App, agent string, synced bool) error {
			text, err := sh.textInput(cmd, "text")
			if err != nil {
				return err
			}
			res, err := a.Tasks().Log(ctx, app.TaskEventRequest{Agent: agent, Task: cmd.String("task"), Type: cmd.String("type"), Text: text, NoSync: synced})
			if err != nil {
				return err
			}
			return sh.out(cmd, res, res.Path+": "+strings.SplitN(res.Line, "\n", 2)[0])
		}),
	}
}

func taskFocusCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "focus", Usage: "this agent's focused task",
		Description: "With --json: {agent, task: path or null, from: the agent whose focus it is, held_by and notice\n" +
			"when another agent holds the task now}.",
		Flags: []cli.Flag{jsonFlag(), agentFlag()},
		Action: sh.withAgentTasks(func(ctx context.Context, cmd *cli.Command, a *app.App, agent string, synced bool) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			f, err := a.Tasks().Focused(ctx, app.TaskFocusRequest{Agent: agent, NoSync: synced})
			if err != nil {
				return err
			}
			if f.Lost != "" && !sh.quiet {
				fmt.Fprintf(sh.stderr, "warning: %s\n", f.Lost)
			}
			if cmd.Bool("json") {
				var t any
				if f.Task != "" {
					t = f.Task
				}
				out := map[string]any{"agent": f.Agent, "task": t, "from": f.From}
				if f.HeldBy != "" {
					out["held_by"], out["notice"] = f.HeldBy, f.Notice
				}
				return sh.printJSON(out)
			}
			if f.Task == "" {
				fmt.Fprintf(sh.stdout, "agent %s has no focused task\n", agent)
				return nil
			}
			line := f.Task
			if f.From != agent {
				line += " (agent " + f.From + "'s focus)"
			}
			fmt.Fprintln(sh.stdout, line)
			return nil
		}),
	}
}

func taskTreeCommand(sh *shell) *cli.Command {
	canvas := &canvasValue{}
	return &cli.Command{
		Name: "tree", Usage: "the task tree (finished branches folded unless --all), or as an Obsidian canvas", ArgsUsage: "[TASK] [--canvas [FILE.canvas]]",
		Description: "Prints problems (parent cycles, depends_on cycles and self-dependencies, parents and\n" +
			"dependencies that are no task, unknown statuses) as warnings naming file and line. With --json:\n" +
			"{path, name, status, priority, assignee, children: [...], folded, problems: [{path, line,\n" +
			"reason}]} (the whole vault's tree is a top node without a path whose children are the roots).\n" +
			"\n" +
			"--canvas writes the tree as a JSON Canvas file instead, to open in Obsidian: a card per task\n" +
			"(the note itself), arrows from parent to child and, labelled \"depends on\", to each dependency,\n" +
			"coloured by status, laid out as a tree. FILE (a vault path; --canvas=FILE, or any argument\n" +
			"ending in .canvas) defaults to <views folder>/Tasks.canvas, or <TASK's name>.canvas there. Run\n" +
			"again, it updates its own cards and arrows and keeps yours, and where you moved its cards; a\n" +
			"file that is not a canvas, or holds another task tree, is refused (exit 3). With --json: {path,\n" +
			"nodes, edges, kept}.",
		Flags: []cli.Flag{jsonFlag(), &cli.BoolFlag{Name: "all", Usage: "unfold finished branches"},
			&cli.GenericFlag{Name: "canvas", Value: canvas, HideDefault: true,
				Usage: "write the tree as an Obsidian canvas (default FILE: <views folder>/Tasks.canvas)"}},
		Action: sh.withFresh(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			args := cmd.Args().Slice()
			if canvas.set {
				// --canvas FILE.canvas: the file came as an argument.
				for i, arg := range args {
					if strings.HasSuffix(strings.ToLower(arg), app.CanvasExt) && canvas.file == "" {
						canvas.file = arg
						args = slices.Delete(args, i, i+1)
						break
					}
				}
			}
			ref := ""
			switch len(args) {
			case 0:
			case 1:
				ref = args[0]
			default:
				return usagef("tree takes at most one TASK, got %d arguments", len(args))
			}
			if canvas.set {
				return sh.writeCanvas(ctx, cmd, a, app.CanvasRequest{Root: ref, File: canvas.file, All: cmd.Bool("all")})
			}
			// withFresh synced, for the canvas (TaskCanvas does not).
			top, err := a.Tasks().Tree(ctx, app.TaskTreeRequest{Task: ref, All: cmd.Bool("all"), NoSync: true})
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(top)
			}
			sh.printProblems(top.Problems)
			if top.Path == "" {
				if len(top.Children) == 0 {
					fmt.Fprintln(sh.stdout, "no tasks yet: add one with 'vaultmem task add TITLE'")
				}
				for _, c := range top.Children {
					sh.printNode(c, 0)
				}
			} else {
				sh.printNode(top, 0)
			}
			return nil
		}),
	}
}

// canvasValue is --canvas: a flag that may be given alone (--canvas, the
// default file) or with a file (--canvas=FILE).
type canvasValue struct {
	set  bool
	file string
}

func (c *canvasValue) Set(s string) error {
	switch s {
	case "true":
		c.set = true
	case "false":
		c.set = false
	default:
		c.set, c.file = true, s
	}
	return nil
}

func (c *canvasValue) String() string   { return c.file }
func (c *canvasValue) Get() any         { return c.file }
func (c *canvasValue) IsBoolFlag() bool { return true }

// writeCanvas writes the task canvas and says what it did.
func (sh *shell) writeCanvas(ctx context.Context, cmd *cli.Command, a *app.App, req app.CanvasRequest) error {
	if req.File != "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		dir, err := sh.vaultDir()
		if err != nil {
			return err
		}
		if req.File, err = canvasPath(dir, wd, req.File); err != nil {
			return err
		}
	}
	res, err := a.Tasks().Canvas(ctx, req)
	if err != nil {
		return err
	}
	sh.printProblems(res.Problems)
	line := fmt.Sprintf("wrote %s: %d tasks, %d arrows", res.Path, res.Nodes, res.Edges)
	if res.Kept > 0 {
		line += fmt.Sprintf("; kept %d cards and arrows of yours", res.Kept)
	}
	if len(res.Dropped) > 0 && !cmd.Bool("json") {
		sh.warnf("%s: removed %d arrows of yours whose card is no longer on the canvas (%s)", res.Path, len(res.Dropped), strings.Join(res.Dropped, ", "))
	}
	return sh.out(cmd, res.CanvasResult, line)
}

func taskReadyCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "ready", Usage: "the tasks that can be worked on now, most urgent first",
		Description: "Todo, every dependency done, no open child; by priority, then how many tasks each\n" +
			"unblocks, then age. With --json: {tasks: [{path, name, priority, ..., unblocks, depends_on, why}],\n" +
			"total, more, next_offset} (a page: --limit, --offset).",
		Flags: pageFlags(jsonFlag()),
		Action: sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			// 0 is no limit to a person typing it; app takes it for the
			// default page.
			limit := int(cmd.Int("limit"))
			if limit < 1 {
				return usagef("--limit must be from 1 to %d", app.MaxLimit)
			}
			offset := int(cmd.Int("offset"))
			page, err := a.Tasks().Ready(ctx, app.ReadyRequest{Offset: offset, Limit: limit})
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(withPage(map[string]any{"tasks": page.Tasks}, page.PageInfo))
			}
			if len(page.Tasks) == 0 {
				fmt.Fprintln(sh.stdout, "no task is ready")
			}
			for i, r := range page.Tasks {
				fmt.Fprintf(sh.stdout, "%d. %s — %s\n   %s\n", offset+i+1, r.Name, r.Path, r.Why)
			}
			sh.printMore(page.PageInfo)
			return nil
		}),
	}
}

func taskContextCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "context", Usage: "the focused task's (or TASK's) context within a token budget", ArgsUsage: "[TASK]",
		Description: "Ancestors, siblings not done (with their last milestone), children, and the task's log,\n" +
			"newest events kept when the budget is short. With --json: {task, ancestors, siblings,\n" +
			"children, events, context, used_tokens, budget, truncated, cut, pruned}.",
		Flags: []cli.Flag{jsonFlag(), agentFlag(),
			&cli.IntFlag{Name: "budget", Value: app.TaskDefaultBudget, Usage: fmt.Sprintf("at most `N` tokens, up to %d", app.TaskMaxBudget)}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			agent, err := sh.agentOf(cmd)
			if err != nil {
				return err
			}
			ref, err := optionalArg(cmd, "TASK")
			if err != nil {
				return err
			}
			if b := cmd.Int("budget"); b < 1 || b > app.TaskMaxBudget {
				return usagef("--budget must be from 1 to %d tokens", app.TaskMaxBudget)
			}
			req := app.ContextRequest{Task: ref, Agent: agent, Budget: int(cmd.Int("budget"))}
			c, err := query(ctx, sh, app.OpContext, req, 0)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(c)
			}
			fmt.Fprint(sh.stdout, c.Context)
			return nil
		},
	}
}

// printNode prints a task tree, two spaces a level.
func (sh *shell) printNode(n *app.TaskNode, depth int) {
	line := fmt.Sprintf("%s- %s [%s, %s] %s", strings.Repeat("  ", depth), n.Name, n.Status, n.Priority, n.Path)
	if n.Assignee != "" {
		line += " @" + n.Assignee
	}
	if n.Folded > 0 {
		line += fmt.Sprintf(" (+%d finished, --all shows them)", n.Folded)
	}
	fmt.Fprintln(sh.stdout, line)
	for _, c := range n.Children {
		sh.printNode(c, depth+1)
	}
}

// printProblems prints, unless --quiet, each problem as a warning naming
// its file and line.
func (sh *shell) printProblems(ps []app.Problem) {
	if sh.quiet {
		return
	}
	for _, p := range ps {
		if p.Line > 0 {
			fmt.Fprintf(sh.stderr, "warning: %s:%d: %s\n", p.Path, p.Line, p.Message)
		} else {
			fmt.Fprintf(sh.stderr, "warning: %s: %s\n", p.Path, p.Message)
		}
	}
}

// canvasPath is the vault path of the canvas file a person typed: an
// absolute path inside the vault, or a path relative to the working
// folder wd that leads into the vault; a relative path that does not
// (the working folder is outside the vault) is a vault path, as it
// always was. Errors: a usage error for an absolute path outside the
// vault.
func canvasPath(vaultDir, wd, file string) (string, error) {
	root := realPath(vaultDir)
	inside := func(abs string) (string, bool) {
		rel, err := filepath.Rel(root, realPath(abs))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return "", false
		}
		return filepath.ToSlash(rel), true
	}
	if filepath.IsAbs(file) {
		rel, ok := inside(file)
		if !ok {
			return "", usagef("--canvas %s is outside the vault %s: give a file in the vault (absolute, or relative to the working folder or to the vault)", file, vaultDir)
		}
		return rel, nil
	}
	if rel, ok := inside(filepath.Join(wd, file)); ok {
		return rel, nil
	}
	return file, nil
}

// realPath is p absolute with the symbolic links of its folder resolved
// (the file itself may not exist yet), so that a vault reached through a
// link compares equal to its real path.
func realPath(p string) string {
	p = filepath.Clean(p)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(dir, filepath.Base(p))
	}
	return p
}
