"""The cause check of the lab (lab.py cause): every row of the scenario's reason in
`whydrop count --json` must carry a cause whose text names the scenario's CAUSE phrase,
so that no explanation drifts from what the kernel really did. Run on the host."""
import json
import sys


def cmd_cause(argv):
    """cause JSON REASON PHRASE: prints what is wrong and exits 1, or exits 0."""
    path, reason, phrase = argv[0], argv[1], argv[2]
    if not phrase.strip():
        sys.exit('the scenario states no CAUSE (a phrase of what really happened)')
    doc = json.load(open(path))
    rows = [d for d in doc.get('drops', []) if d.get('reason') == reason]
    if not rows:
        sys.exit('no %s row to check the cause of' % reason)
    for d in rows:
        cause = d.get('cause') or {}
        text = cause.get('text') or ''
        if phrase.lower() not in text.lower():
            sys.exit('cause of %s at %s is "%s" (%s), not "%s"'
                     % (reason, d.get('function'), text or 'none',
                        cause.get('confidence', '-'), phrase))
