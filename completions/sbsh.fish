# fish completion for sbsh, the sandboxed shell for AI coding agents.
# Installed as $(datadir)/fish/vendor_completions.d/sbsh.fish.

set -l shell_options allexport emacs errexit hashall ignoreeof monitor noclobber noexec noglob nolog notify nounset pipefail posix verbose vi xtrace

# After `--config` only its settings, and after a setting only its values.
function __sbsh_config_setting
    set -l words (commandline -opc)
    test (count $words) -ge 2; and test "$words[-1]" = --config
end
function __sbsh_config_value
    set -l words (commandline -opc)
    test (count $words) -ge 3; and test "$words[-2]" = --config; and test "$words[-1]" = $argv[1]
end

complete -c sbsh -n __sbsh_config_setting -f -a set-sandbox -d 'sandbox = on|off|auto'
complete -c sbsh -n __sbsh_config_setting -f -a set-network -d 'network = on|off|allow:PORTS,HOSTS'
complete -c sbsh -n '__sbsh_config_value set-sandbox' -f -a 'on off auto'
complete -c sbsh -n '__sbsh_config_value set-network' -f -a 'on off allow:'

complete -c sbsh -l sandbox -d 'Require the sandbox: exit 7 when it cannot be applied'
complete -c sbsh -l no-sandbox -d 'Turn the sandbox off'
complete -c sbsh -l net -x -a 'on off allow:' -d 'Network mode'
complete -c sbsh -l allow-write -x -a '(__fish_complete_directories)' -d 'Make a folder writable too'
complete -c sbsh -l no-hide -d 'Hide no secret from the sandbox'
complete -c sbsh -l headless -d 'Never ask a human: refuse what needs approval'
complete -c sbsh -l audit -d 'Log sandbox denials to the kernel audit log'
complete -c sbsh -l doctor -d 'Print what the sandbox can do here'
complete -c sbsh -l approver -d 'Answer the approval prompts of every sbsh of this user here'
complete -c sbsh -l json -d 'JSON output for --doctor and --classify'
complete -c sbsh -l classify -d 'Print the verdict of a command line, run nothing'
complete -c sbsh -l config -d 'Change the config file'
complete -c sbsh -l review -x -a 'status log diff accept reject undo --isolate' -d 'Review the checkpoints, or with --isolate a layer, of this project'
complete -c sbsh -l no-checkpoints -d 'Make no checkpoints in this session'
complete -c sbsh -l ephemeral -d 'Undo what this session changed when it ends'
complete -c sbsh -l isolate -d 'Run in a layer of the project: nothing reaches it until accepted'
complete -c sbsh -l shims -x -a '(__fish_complete_directories)' -d 'Write bash and sh shims that re-enter sbsh'
complete -c sbsh -l setup -x -a '--undo claude-code codex' -d 'Make an agent tool run its commands with sbsh'
complete -c sbsh -s c -x -d 'Run the command string'
complete -c sbsh -s s -d 'Read commands from standard input'
complete -c sbsh -s i -d 'Interactive shell'
complete -c sbsh -s l -l login -d 'Login shell: read /etc/profile and ~/.profile'
complete -c sbsh -s o -x -a "$shell_options" -d 'Set a shell option'
complete -c sbsh -l posix -d 'Set the posix option'
complete -c sbsh -l norc -d 'Skip the interactive startup files'
complete -c sbsh -l noprofile -d 'Skip the login startup files'
complete -c sbsh -l version -d 'Print the version'
complete -c sbsh -l help -d 'Print a short usage message'
