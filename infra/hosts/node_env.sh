# Sourced on every node before its ranks start (deepspeed --venv_script $PWD/infra/hosts/node_env.sh).
# pdsh runs the launch over ssh in a bare login shell: without this, the other nodes would run
# whatever `python` their PATH finds, outside the venv, and without the keys this shell has.
# The repository (and its .venv) must sit at the same path on every node (a shared filesystem).
_here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck disable=SC1091
source "$_here/.venv/bin/activate"
# API keys (COGEVOL_*_API_KEY), HF_HOME, HF_TOKEN: kept out of the repository and of the
# command line, in a file only the user can read on each node
# shellcheck disable=SC1090
[ -f "$HOME/.cogevol_env" ] && source "$HOME/.cogevol_env"
unset _here
