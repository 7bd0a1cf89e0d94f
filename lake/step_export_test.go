package lake

// WithStepHook returns opts with a hook called at each step of a commit.
func WithStepHook(opts Options, hook func(step string)) Options {
	opts.step = hook
	return opts
}
