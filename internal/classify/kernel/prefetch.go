package kernel

import (
	"sync"

	"github.com/oath-harness/oath-harness/internal/classify/shell"
	"github.com/oath-harness/oath-harness/internal/command"
)

// Analysing ahead. A large program's commands are judged one after another (package classify's bash.go's
// analyzed), and a command that may run its arguments as a command line has them analysed as
// programs of their own (carried): a test script hands hundreds of bodies to
// test_expect_success, and the judgement waits for each to be parsed and walked while the
// other core has nothing to do once the script itself is walked. The prefetcher parses and
// walks those arguments on that core, ahead of the judgement, for the batches already handed
// out; the judgement takes a program from it when there is one (analysedAhead) and analyses
// it itself otherwise. shell.Analyze depends on its source and options alone, so a program
// analysed ahead is the one the judgement would have made: the verdicts do not change
// (TestPipelinedAsSequential, which judges real test scripts both ways).

// maxAhead bounds the programs waiting to be analysed ahead: past it, an offer is dropped and
// the judgement analyses the program itself.
const maxAhead = 256

type Prefetcher struct {
	Mu      sync.Mutex
	Progs   map[AheadKey]*ahead
	queue   chan AheadKey
	opt     shell.Options // Home and Names; Cwd per program
	stopped bool          // the judgement is done: what is still queued is not analysed
}

type AheadKey struct{ Src, Cwd string }

// ahead is one program analysed ahead: prog once done is closed. begun: the prefetcher is at
// it. taken: the judgement asked for it before the prefetcher began, and analyses it itself.
type ahead struct {
	Done         chan struct{}
	prog         *shell.Program
	begun, taken bool
}

func NewPrefetcher(opt shell.Options) *Prefetcher {
	p := &Prefetcher{Progs: map[AheadKey]*ahead{}, queue: make(chan AheadKey, maxAhead), opt: opt}
	go p.run()
	return p
}

// run analyses what is offered, in order, until the queue is closed.
func (p *Prefetcher) run() {
	for k := range p.queue {
		p.Mu.Lock()
		if p.stopped {
			p.Mu.Unlock()
			return
		}
		a := p.Progs[k]
		if a.taken {
			p.Mu.Unlock()
			continue
		}
		a.begun = true
		p.Mu.Unlock()
		opt := p.opt
		opt.Cwd = k.Cwd
		a.prog = shell.Analyze(k.Src, opt)
		close(a.Done)
	}
}

// Stop ends the prefetcher: what it was offered and has not begun is not analysed.
func (p *Prefetcher) Stop() {
	p.Mu.Lock()
	p.stopped = true
	p.Mu.Unlock()
	close(p.queue)
}

// Offer queues the arguments of a batch's commands that carried would analyse.
func (p *Prefetcher) Offer(batch []shell.Cmd, projectDir string) {
	for i := range batch {
		for _, src := range CarriedLines(&batch[i]) {
			if Pipelined(src) { // analysed in batches of its own, not by Analyze alone
				continue
			}
			k := AheadKey{src, cmdDir(&batch[i], projectDir)}
			p.Mu.Lock()
			if _, seen := p.Progs[k]; seen || len(p.queue) == cap(p.queue) {
				p.Mu.Unlock()
				continue
			}
			p.Progs[k] = &ahead{Done: make(chan struct{})}
			p.Mu.Unlock()
			p.queue <- k // never blocks: it has room, and only offer sends
		}
	}
}

// Take returns the program analysed ahead for src in cwd, waiting for it if the prefetcher has
// begun it; nil when it was not offered or not begun (the caller analyses it itself).
func (p *Prefetcher) Take(src, cwd string) *shell.Program {
	k := AheadKey{src, cwd}
	p.Mu.Lock()
	a, ok := p.Progs[k]
	if !ok || a.taken {
		p.Mu.Unlock()
		return nil
	}
	if a.begun {
		p.Mu.Unlock()
		<-a.Done
		return a.prog
	}
	a.taken = true // still queued: run checks taken under the lock before it begins
	p.Mu.Unlock()
	return nil
}

// Matches reports options the prefetcher analyses with, but for the directory.
func (p *Prefetcher) Matches(opt shell.Options) bool {
	return opt.Home == p.opt.Home && opt.Pieces == nil && opt.Batches == nil && (opt.Names == nil) == (p.opt.Names == nil)
}

// CarriedLines are the arguments carried analyses for a command on neither list
// (carriedArgs); a program it is not offered is analysed as before.
func CarriedLines(cmd *shell.Cmd) []string {
	row := Program(cmd.Name())
	if row.Judge != command.Gray || row.Reason != "" || row.Has(command.AllowList) || len(cmd.Args) < 2 {
		return nil
	}
	return CarriedArgs(cmd.Args[1:])
}
