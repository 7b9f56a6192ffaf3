#!/usr/bin/env python3
"""Writes benches/corpus/answers.jsonl: 240 answers in the shape language models give bot
users (headings, nested lists, tables, fenced code, links, emphasis, quotes, task lists),
the corpus of the CommonMark import's speed check (spec section 9). Each topic below is
written out by hand; each is answered in six of the shapes models use (a how-to, a short
answer, a comparison, troubleshooting, an explanation, a checklist), with seeded variation in
markers, emphasis spelling, heading levels and closings, so no two answers are alike.

    python3 benches/corpus/answers.py > benches/corpus/answers.jsonl
"""
import json
import random

# (title, intro, steps [(lead, text)], code (lang, text) or None, table (head, rows),
#  links [(text, url)], tips, language of the prose)
TOPICS = [
    ("Set up a Python virtual environment",
     "A virtual environment keeps each project's packages apart from the system Python.",
     [("Create it", "run `python3 -m venv .venv` in the project folder"),
      ("Activate it", "use `source .venv/bin/activate` on macOS or Linux, `.venv\\Scripts\\activate` on Windows"),
      ("Install packages", "`pip install -r requirements.txt` now installs into `.venv` only"),
      ("Leave it", "type `deactivate` when you are done")],
     ("bash", "python3 -m venv .venv\nsource .venv/bin/activate\npip install --upgrade pip\npip install -r requirements.txt"),
     (["Command", "What it does"], [["`python3 -m venv .venv`", "creates the environment"], ["`pip freeze`", "lists installed packages"], ["`deactivate`", "leaves the environment"]]),
     [("venv documentation", "https://docs.python.org/3/library/venv.html"), ("pip user guide", "https://pip.pypa.io/en/stable/user_guide/")],
     ["Add `.venv/` to your `.gitignore`.", "Use one environment per project.", "Pin versions with `pip freeze > requirements.txt`."], "en"),
    ("Reverse a list in Python",
     "There are three common ways, and they differ in whether they change the original list.",
     [("In place", "`items.reverse()` changes the list and returns `None`"),
      ("A reversed copy", "`items[::-1]` makes a new list"),
      ("An iterator", "`reversed(items)` yields the items without copying")],
     ("python", "items = [1, 2, 3]\nitems.reverse()          # items is now [3, 2, 1]\ncopy = items[::-1]       # [1, 2, 3]\nfor x in reversed(items):\n    print(x)"),
     (["Method", "Copies?", "Returns"], [["`list.reverse()`", "no", "`None`"], ["`[::-1]`", "yes", "a new list"], ["`reversed()`", "no", "an iterator"]]),
     [("Python docs on sequences", "https://docs.python.org/3/library/stdtypes.html#sequence-types-list-tuple-range")],
     ["Prefer `reversed()` in loops over large lists.", "Slicing works on strings and tuples too."], "en"),
    ("Undo the last Git commit",
     "What to run depends on whether the commit was already pushed.",
     [("Keep the changes", "`git reset --soft HEAD~1` moves the branch back and keeps your files staged"),
      ("Discard the changes", "`git reset --hard HEAD~1` — careful, this deletes the work"),
      ("Already pushed?", "use `git revert HEAD` to add a commit that undoes it")],
     ("bash", "# keep the work, staged\ngit reset --soft HEAD~1\n\n# undo a pushed commit safely\ngit revert HEAD\ngit push"),
     (["Situation", "Command"], [["Not pushed, keep changes", "`git reset --soft HEAD~1`"], ["Not pushed, drop changes", "`git reset --hard HEAD~1`"], ["Pushed", "`git revert HEAD`"]]),
     [("Pro Git: Undoing Things", "https://git-scm.com/book/en/v2/Git-Basics-Undoing-Things")],
     ["Never rewrite history others have pulled.", "`git reflog` can bring back a commit you reset by mistake."], "en"),
    ("Center a div with CSS",
     "Modern CSS gives you two short answers: flexbox and grid.",
     [("Flexbox", "put `display: flex; justify-content: center; align-items: center;` on the parent"),
      ("Grid", "`display: grid; place-items: center;` does both axes at once"),
      ("Give the parent a height", "centering vertically needs the parent to be taller than the child")],
     ("css", ".parent {\n  display: grid;\n  place-items: center;\n  min-height: 100vh;\n}"),
     (["Technique", "Horizontal", "Vertical"], [["`margin: 0 auto`", "yes", "no"], ["Flexbox", "yes", "yes"], ["Grid", "yes", "yes"]]),
     [("MDN: Centering in CSS", "https://developer.mozilla.org/en-US/docs/Web/CSS/Layout_cookbook/Center_an_element")],
     ["`place-items` is shorthand for `align-items` and `justify-items`."], "en"),
    ("Make a REST API call in JavaScript",
     "The built-in `fetch` function works in browsers and in Node 18 and later.",
     [("Call fetch", "`await fetch(url)` returns a `Response`"),
      ("Check the status", "`response.ok` is false for 4xx and 5xx answers"),
      ("Read the body", "`await response.json()` parses JSON")],
     ("javascript", "async function getUser(id) {\n  const res = await fetch(`https://api.example.com/users/${id}`);\n  if (!res.ok) throw new Error(`HTTP ${res.status}`);\n  return res.json();\n}"),
     (["Option", "Example"], [["method", "`'POST'`"], ["headers", "`{ 'Content-Type': 'application/json' }`"], ["body", "`JSON.stringify(data)`"]]),
     [("MDN: Using Fetch", "https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API/Using_Fetch")],
     ["`fetch` does not reject on HTTP errors — check `res.ok`.", "Use `AbortController` for timeouts."], "en"),
    ("Read a file line by line in Rust",
     "Wrap the file in a `BufReader` and iterate over `lines()`.",
     [("Open the file", "`File::open(path)?` returns a `Result`"),
      ("Buffer it", "`BufReader::new(file)` avoids a system call per line"),
      ("Iterate", "each item of `lines()` is an `io::Result<String>`")],
     ("rust", "use std::fs::File;\nuse std::io::{self, BufRead, BufReader};\n\nfn main() -> io::Result<()> {\n    let file = File::open(\"input.txt\")?;\n    for line in BufReader::new(file).lines() {\n        println!(\"{}\", line?);\n    }\n    Ok(())\n}"),
     (["Type", "Use"], [["`BufReader`", "buffered reading"], ["`read_to_string`", "small files at once"], ["`memmap2`", "very large files"]]),
     [("std::io::BufRead", "https://doc.rust-lang.org/std/io/trait.BufRead.html")],
     ["`lines()` strips the `\\n` (and a `\\r` before it).", "Use `read_line` with one reused `String` to avoid an allocation per line."], "en"),
    ("Write a SQL query for the top 5 customers",
     "Join orders to customers, sum per customer, and keep the first five.",
     [("Join", "connect `orders.customer_id` to `customers.id`"),
      ("Aggregate", "`SUM(orders.total)` grouped by customer"),
      ("Sort and limit", "`ORDER BY revenue DESC LIMIT 5`")],
     ("sql", "SELECT c.name, SUM(o.total) AS revenue\nFROM customers c\nJOIN orders o ON o.customer_id = c.id\nWHERE o.created_at >= DATE '2024-01-01'\nGROUP BY c.name\nORDER BY revenue DESC\nLIMIT 5;"),
     (["Clause", "Purpose"], [["`JOIN`", "combine tables"], ["`GROUP BY`", "one row per customer"], ["`LIMIT`", "keep the top rows"]]),
     [("PostgreSQL: Aggregate Functions", "https://www.postgresql.org/docs/current/functions-aggregate.html")],
     ["Index `orders.customer_id` for speed.", "On SQL Server use `TOP 5` instead of `LIMIT`."], "en"),
    ("Deploy a Docker container",
     "Build an image, run it, and map the port you need.",
     [("Write a Dockerfile", "start from a small base image such as `python:3.12-slim`"),
      ("Build", "`docker build -t myapp .`"),
      ("Run", "`docker run -d -p 8080:8000 myapp` maps host port 8080 to the app's 8000")],
     ("dockerfile", "FROM python:3.12-slim\nWORKDIR /app\nCOPY requirements.txt .\nRUN pip install --no-cache-dir -r requirements.txt\nCOPY . .\nCMD [\"gunicorn\", \"-b\", \"0.0.0.0:8000\", \"app:app\"]"),
     (["Flag", "Meaning"], [["`-d`", "run in the background"], ["`-p 8080:8000`", "publish a port"], ["`--rm`", "remove the container on exit"]]),
     [("Docker docs: Dockerfile reference", "https://docs.docker.com/reference/dockerfile/")],
     ["Copy `requirements.txt` before the code so the install layer is cached.", "Use a `.dockerignore`."], "en"),
    ("Fix \"permission denied\" when running a script",
     "The file is missing its execute bit, or the filesystem forbids executing it.",
     [("Add the execute bit", "`chmod +x script.sh`"),
      ("Check the shebang", "the first line should be `#!/usr/bin/env bash`"),
      ("Check the mount", "a disk mounted `noexec` refuses to run anything; run `bash script.sh` instead")],
     ("bash", "ls -l script.sh\nchmod +x script.sh\n./script.sh"),
     (["Symptom", "Likely cause"], [["`Permission denied`", "no execute bit"], ["`bad interpreter`", "wrong shebang or CRLF line endings"], ["works with `bash x.sh`", "`noexec` mount"]]),
     [("chmod manual", "https://man7.org/linux/man-pages/man1/chmod.1.html")],
     ["Files edited on Windows may have CRLF endings: fix with `dos2unix`."], "en"),
    ("Compare PostgreSQL and MySQL",
     "Both are mature open-source databases; the differences are in features and defaults.",
     [("Standards", "PostgreSQL follows the SQL standard more closely"),
      ("Features", "PostgreSQL has richer types (`JSONB`, arrays, ranges) and extensions such as PostGIS"),
      ("Ecosystem", "MySQL is everywhere in shared hosting and has simple replication")],
     None,
     (["Aspect", "PostgreSQL", "MySQL"], [["JSON", "`JSONB`, indexable", "`JSON`, generated columns"], ["Concurrency", "MVCC", "MVCC (InnoDB)"], ["Extensions", "many", "few"], ["Licence", "PostgreSQL", "GPL"]]),
     [("PostgreSQL", "https://www.postgresql.org"), ("MySQL", "https://www.mysql.com")],
     ["Choose PostgreSQL for complex queries and data integrity.", "Choose MySQL when your host or framework expects it."], "en"),
    ("Make fluffy pancakes",
     "The secret is not to over-mix the batter.",
     [("Mix the dry ingredients", "200 g flour, 2 tsp baking powder, a pinch of salt, 1 tbsp sugar"),
      ("Whisk the wet ones", "300 ml milk, 1 egg, 2 tbsp melted butter"),
      ("Combine gently", "stop while there are still a few lumps"),
      ("Cook", "on a medium pan until bubbles appear, then flip")],
     None,
     (["Ingredient", "Amount"], [["Flour", "200 g"], ["Milk", "300 ml"], ["Egg", "1"], ["Baking powder", "2 tsp"]]),
     [("BBC Good Food pancakes", "https://www.bbcgoodfood.com/recipes/easy-pancakes")],
     ["Let the batter rest for *10 minutes*.", "Keep cooked pancakes warm in a low oven."], "en"),
    ("Plan a week in Japan",
     "Seven days is enough for Tokyo, Kyoto and a day trip.",
     [("Days 1-3: Tokyo", "Shibuya, Asakusa, and a day in Nikko or Kamakura"),
      ("Days 4-6: Kyoto", "Fushimi Inari early, Arashiyama, and Nara as a day trip"),
      ("Day 7: Osaka", "Dotonbori for food before flying out of Kansai")],
     None,
     (["Pass", "Covers", "Worth it?"], [["JR Pass 7 days", "most JR trains", "only with long trips"], ["Suica / ICOCA", "local trains, buses", "yes"]]),
     [("Japan National Tourism Organization", "https://www.japan.travel/en/")],
     ["Book the Shinkansen seats on the right side for Mt Fuji.", "Carry some cash — small shops may not take cards."], "en"),
    ("Improve sleep quality",
     "Small, consistent habits matter more than any single trick.",
     [("Keep a schedule", "same bedtime and wake time, weekends too"),
      ("Mind the light", "bright light in the morning, dim screens an hour before bed"),
      ("Watch caffeine", "none after early afternoon"),
      ("Cool, dark room", "around 18 °C is ideal for most people")],
     None,
     (["Habit", "Effect"], [["Morning light", "sets your body clock"], ["Late caffeine", "delays sleep onset"], ["Alcohol", "fragments sleep"]]),
     [("CDC: Sleep tips", "https://www.cdc.gov/sleep/about/index.html")],
     ["If you cannot sleep after 20 minutes, get up and read.", "*This is general advice, not medical advice.*"], "en"),
    ("Budget with the 50/30/20 rule",
     "Split your take-home pay into needs, wants and savings.",
     [("50% needs", "rent, groceries, utilities, insurance, minimum debt payments"),
      ("30% wants", "dining out, hobbies, subscriptions"),
      ("20% savings", "emergency fund first, then retirement and extra debt payments")],
     None,
     (["Income", "Needs", "Wants", "Savings"], [["$3,000", "$1,500", "$900", "$600"], ["$4,500", "$2,250", "$1,350", "$900"]]),
     [("Investopedia: 50/30/20", "https://www.investopedia.com/ask/answers/022916/what-502030-budget-rule.asp")],
     ["Automate the savings transfer on payday.", "Adjust the split if rent alone is over half your income."], "en"),
    ("Explain Big-O notation",
     "Big-O describes how the work grows as the input grows, ignoring constant factors.",
     [("O(1)", "constant: a hash-map lookup"),
      ("O(log n)", "halving each step: binary search"),
      ("O(n)", "one pass: summing a list"),
      ("O(n log n)", "good sorting algorithms"),
      ("O(n²)", "nested loops over the same data")],
     ("python", "def contains(sorted_items, x):\n    lo, hi = 0, len(sorted_items)\n    while lo < hi:          # O(log n)\n        mid = (lo + hi) // 2\n        if sorted_items[mid] < x:\n            lo = mid + 1\n        else:\n            hi = mid\n    return lo < len(sorted_items) and sorted_items[lo] == x"),
     (["n", "O(n)", "O(n log n)", "O(n²)"], [["10", "10", "33", "100"], ["1,000", "1,000", "9,966", "1,000,000"]]),
     [("Big-O cheat sheet", "https://www.bigocheatsheet.com")],
     ["Big-O is an *upper bound*; average case can be much better.", "Measure before optimising."], "en"),
    ("Write a unit test with pytest",
     "pytest finds functions named `test_*` in files named `test_*.py`.",
     [("Install", "`pip install pytest`"),
      ("Write a test", "a plain function with `assert` statements"),
      ("Run", "`pytest -q` from the project root")],
     ("python", "# test_math.py\nimport pytest\nfrom mymath import divide\n\ndef test_divide():\n    assert divide(6, 3) == 2\n\ndef test_divide_by_zero():\n    with pytest.raises(ZeroDivisionError):\n        divide(1, 0)"),
     (["Flag", "Meaning"], [["`-q`", "quiet"], ["`-k name`", "run matching tests"], ["`-x`", "stop at the first failure"]]),
     [("pytest docs", "https://docs.pytest.org/en/stable/")],
     ["Use fixtures for shared setup.", "`pytest --lf` reruns only the last failures."], "en"),
    ("Use async/await in C#",
     "`async` methods return a `Task` and let the thread do other work while waiting.",
     [("Mark the method", "`async Task<T>` instead of `T`"),
      ("Await the call", "`await client.GetStringAsync(url)`"),
      ("Avoid `.Result`", "blocking on a task can deadlock UI apps")],
     ("csharp", "public async Task<int> CountWordsAsync(string url)\n{\n    using var client = new HttpClient();\n    string text = await client.GetStringAsync(url);\n    return text.Split(' ', StringSplitOptions.RemoveEmptyEntries).Length;\n}"),
     (["Return type", "Use"], [["`Task`", "no result"], ["`Task<T>`", "a result"], ["`ValueTask<T>`", "hot paths that often complete synchronously"]]),
     [("Microsoft Learn: async programming", "https://learn.microsoft.com/en-us/dotnet/csharp/asynchronous-programming/")],
     ["Suffix async methods with `Async`.", "Use `ConfigureAwait(false)` in libraries."], "en"),
    ("Handle errors in Go",
     "Go returns errors as values; check them where they happen.",
     [("Return an error", "`return fmt.Errorf(\"open %s: %w\", path, err)`"),
      ("Check it", "`if err != nil { return err }`"),
      ("Inspect it", "`errors.Is(err, os.ErrNotExist)` and `errors.As`")],
     ("go", "func readConfig(path string) (*Config, error) {\n\tdata, err := os.ReadFile(path)\n\tif err != nil {\n\t\treturn nil, fmt.Errorf(\"read config: %w\", err)\n\t}\n\tvar c Config\n\tif err := json.Unmarshal(data, &c); err != nil {\n\t\treturn nil, err\n\t}\n\treturn &c, nil\n}"),
     (["Function", "Use"], [["`fmt.Errorf` with `%w`", "wrap"], ["`errors.Is`", "compare"], ["`errors.As`", "get a typed error"]]),
     [("Go blog: Working with Errors", "https://go.dev/blog/go1.13-errors")],
     ["Add context when you wrap, not when you log.", "Do not ignore errors with `_`."], "en"),
    ("Set up SSH keys for GitHub",
     "An SSH key lets you push without typing a password.",
     [("Generate a key", "`ssh-keygen -t ed25519 -C \"you@example.com\"`"),
      ("Add it to the agent", "`ssh-add ~/.ssh/id_ed25519`"),
      ("Add the public key to GitHub", "Settings → SSH and GPG keys → New SSH key"),
      ("Test", "`ssh -T git@github.com`")],
     ("bash", "ssh-keygen -t ed25519 -C \"you@example.com\"\neval \"$(ssh-agent -s)\"\nssh-add ~/.ssh/id_ed25519\ncat ~/.ssh/id_ed25519.pub"),
     (["File", "Share it?"], [["`id_ed25519`", "**never**"], ["`id_ed25519.pub`", "yes"]]),
     [("GitHub docs: Connecting with SSH", "https://docs.github.com/en/authentication/connecting-to-github-with-ssh")],
     ["Protect the key with a passphrase.", "Switch a repo to SSH with `git remote set-url origin git@github.com:user/repo.git`."], "en"),
    ("Speed up a slow website",
     "Measure first, then fix the biggest items.",
     [("Measure", "run Lighthouse or PageSpeed Insights"),
      ("Images", "serve WebP or AVIF at the displayed size, with `loading=\"lazy\"`"),
      ("Caching", "long `Cache-Control` for hashed assets"),
      ("JavaScript", "split bundles and defer what is not needed at first paint")],
     ("html", "<img src=\"hero.avif\" width=\"1200\" height=\"600\" loading=\"lazy\" alt=\"Hero\">\n<script src=\"app.js\" defer></script>"),
     (["Metric", "Good"], [["LCP", "< 2.5 s"], ["INP", "< 200 ms"], ["CLS", "< 0.1"]]),
     [("web.dev: Core Web Vitals", "https://web.dev/articles/vitals")],
     ["Set `width` and `height` on images to avoid layout shifts.", "Use a CDN for static files."], "en"),
    ("Learn a language faster",
     "Consistency beats intensity: a little every day.",
     [("Daily input", "20 minutes of podcasts or shows you enjoy"),
      ("Spaced repetition", "Anki for the 1,000 most common words"),
      ("Speak early", "a weekly conversation with a tutor or partner"),
      ("Write", "a short journal entry, corrected by a native speaker")],
     None,
     (["Level", "Hours (approx.)"], [["A2", "200"], ["B1", "400"], ["B2", "600"]]),
     [("Anki", "https://apps.ankiweb.net")],
     ["Learn phrases, not isolated words.", "Do not wait until you feel ready to speak."], "en"),
    ("Choose a laptop for programming",
     "For most development work, memory and screen matter more than raw CPU.",
     [("Memory", "16 GB minimum, 32 GB for containers and VMs"),
      ("Storage", "an SSD of 512 GB or more"),
      ("Screen", "at least 14 inches with a sharp panel"),
      ("Keyboard", "you will type on it all day — try it first")],
     None,
     (["Use", "RAM", "CPU"], [["Web", "16 GB", "any recent"], ["Mobile", "32 GB", "fast multi-core"], ["ML", "32 GB+", "plus a GPU or cloud"]]),
     [("Notebookcheck reviews", "https://www.notebookcheck.net")],
     ["Check Linux support before buying if you need it.", "Battery life matters if you work away from desks."], "en"),
    ("Convert Celsius to Fahrenheit",
     "Multiply by 9/5 and add 32.",
     [("Formula", "`F = C × 9/5 + 32`"),
      ("Example", "20 °C × 1.8 + 32 = **68 °F**"),
      ("Back again", "`C = (F − 32) × 5/9`")],
     ("python", "def c_to_f(c: float) -> float:\n    return c * 9 / 5 + 32\n\nprint(c_to_f(37))  # 98.6"),
     (["°C", "°F"], [["-40", "-40"], ["0", "32"], ["37", "98.6"], ["100", "212"]]),
     [],
     ["Quick estimate: double it and add 30."], "en"),
    ("Write a good commit message",
     "A good message says *why*, not only *what*.",
     [("Subject line", "imperative mood, at most 50–72 characters"),
      ("Blank line", "separate the subject from the body"),
      ("Body", "explain the reason and the effect, wrapped at 72 columns")],
     ("text", "Fix crash when the config file is empty\n\nThe parser returned None for an empty file and the caller\nindexed it. Treat an empty file as the default config."),
     (["Do", "Don't"], [["`Add retry to upload`", "`fixed stuff`"], ["`Remove unused flag`", "`WIP`"]]),
     [("How to Write a Git Commit Message", "https://cbea.ms/git-commit/")],
     ["One logical change per commit.", "Reference the issue number in the body."], "en"),
    ("Install Node.js with nvm",
     "nvm lets you switch Node versions per project.",
     [("Install nvm", "run the install script from the nvm README"),
      ("Install Node", "`nvm install --lts`"),
      ("Pin per project", "write the version into `.nvmrc` and run `nvm use`")],
     ("bash", "curl -o- https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/install.sh | bash\nnvm install --lts\nnode --version\necho \"20\" > .nvmrc\nnvm use"),
     (["Command", "Does"], [["`nvm ls`", "list installed versions"], ["`nvm alias default 20`", "set the default"]]),
     [("nvm on GitHub", "https://github.com/nvm-sh/nvm")],
     ["On Windows use `nvm-windows` or `fnm`."], "en"),
    ("Regular expression for an email address",
     "A practical pattern accepts almost every real address; no regex is perfect.",
     [("Local part", "letters, digits and `._%+-`"),
      ("At sign", "exactly one `@`"),
      ("Domain", "labels separated by dots, ending in a TLD of two letters or more")],
     ("regex", "^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$"),
     (["Input", "Matches?"], [["`ana@example.com`", "yes"], ["`a.b+tag@mail.co.uk`", "yes"], ["`no-at-sign.com`", "no"]]),
     [("regex101", "https://regex101.com")],
     ["The only real test is sending a confirmation email.", "Escape the dot: `\\.` not `.`"], "en"),
    ("Kubernetes pod stuck in CrashLoopBackOff",
     "The container starts and exits again; the logs usually say why.",
     [("Read the logs", "`kubectl logs <pod> --previous`"),
      ("Describe the pod", "`kubectl describe pod <pod>` shows events and exit codes"),
      ("Check probes", "a liveness probe that fires too early kills a slow starter"),
      ("Check resources", "exit code 137 means the container was OOM-killed")],
     ("bash", "kubectl get pods\nkubectl logs myapp-7d9c --previous\nkubectl describe pod myapp-7d9c | tail -20"),
     (["Exit code", "Meaning"], [["1", "application error"], ["137", "killed (often OOM)"], ["143", "SIGTERM"]]),
     [("Kubernetes: Debug Pods", "https://kubernetes.io/docs/tasks/debug/debug-application/debug-pods/")],
     ["Raise `initialDelaySeconds` on the liveness probe.", "Set memory limits from real usage."], "en"),
    ("Write a cover letter",
     "Keep it to one page and make it about the employer's needs.",
     [("Opening", "name the role and one reason you are a fit"),
      ("Middle", "two short stories with measurable results"),
      ("Closing", "thank them and ask for a conversation")],
     None,
     (["Part", "Length"], [["Opening", "2–3 sentences"], ["Middle", "2 paragraphs"], ["Closing", "2 sentences"]]),
     [],
     ["Use the job ad's own words where they are true for you.", "Proofread it aloud."], "en"),
    ("Explain how HTTPS works",
     "HTTPS is HTTP inside a TLS connection that encrypts and authenticates the traffic.",
     [("Handshake", "client and server agree on keys with an ephemeral Diffie-Hellman exchange"),
      ("Certificate", "the server proves its identity with a certificate signed by a trusted CA"),
      ("Encryption", "the rest of the traffic uses fast symmetric ciphers such as AES-GCM")],
     None,
     (["Layer", "Protects against"], [["Encryption", "eavesdropping"], ["Integrity (AEAD)", "tampering"], ["Certificates", "impersonation"]]),
     [("Cloudflare: What is TLS?", "https://www.cloudflare.com/learning/ssl/transport-layer-security-tls/")],
     ["TLS 1.3 needs only one round trip for the handshake.", "Let's Encrypt gives free certificates."], "en"),
    ("Grow basil indoors",
     "Basil wants warmth, light and moist (not wet) soil.",
     [("Light", "6–8 hours of sun or a grow light"),
      ("Water", "when the top 2 cm of soil is dry"),
      ("Pinch", "cut above a pair of leaves to make it bushy"),
      ("Flowers", "remove buds so the leaves stay sweet")],
     None,
     (["Problem", "Cause"], [["Yellow leaves", "too much water"], ["Leggy stems", "too little light"], ["Black spots", "cold"]]),
     [],
     ["Never let it sit below 10 °C.", "Harvest from the top, never more than a third at once."], "en"),
    # Spanish
    ("Cómo crear una tabla en Excel",
     "Convertir un rango en tabla facilita filtrar, ordenar y dar formato.",
     [("Selecciona los datos", "incluye la fila de encabezados"),
      ("Inserta la tabla", "pulsa `Ctrl + T` o ve a **Insertar → Tabla**"),
      ("Confirma", "marca *La tabla tiene encabezados*")],
     None,
     (["Atajo", "Acción"], [["`Ctrl + T`", "crear tabla"], ["`Ctrl + Shift + L`", "filtros"], ["`Alt + =`", "autosuma"]]),
     [("Soporte de Microsoft", "https://support.microsoft.com/es-es/excel")],
     ["Usa nombres de tabla claros, como `Ventas2024`.", "Las fórmulas con referencias estructuradas se ajustan solas."], "es"),
    ("Consejos para una entrevista de trabajo",
     "La preparación marca la diferencia.",
     [("Investiga la empresa", "misión, productos y noticias recientes"),
      ("Prepara ejemplos", "usa el método STAR: situación, tarea, acción, resultado"),
      ("Haz preguntas", "sobre el equipo y los objetivos del puesto")],
     None,
     (["Pregunta frecuente", "Qué buscan"], [["¿Por qué este puesto?", "motivación"], ["Un error que cometiste", "autocrítica"]]),
     [],
     ["Llega **10 minutos** antes.", "Envía un correo de agradecimiento el mismo día."], "es"),
    # German
    ("Ein Git-Repository klonen",
     "Mit `git clone` holst du eine vollständige Kopie eines Repositorys.",
     [("URL kopieren", "auf GitHub unter **Code** die HTTPS- oder SSH-Adresse wählen"),
      ("Klonen", "`git clone <url>` im gewünschten Ordner ausführen"),
      ("Wechseln", "`cd` in den neuen Ordner")],
     ("bash", "git clone https://github.com/user/projekt.git\ncd projekt\ngit log --oneline -5"),
     (["Option", "Bedeutung"], [["`--depth 1`", "nur der letzte Stand"], ["`--branch dev`", "einen bestimmten Branch"]]),
     [("Git-Dokumentation", "https://git-scm.com/docs/git-clone")],
     ["Große Repositorys zuerst mit `--depth 1` klonen."], "de"),
    ("Richtig lüften im Winter",
     "Stoßlüften ist besser als gekippte Fenster.",
     [("Mehrmals täglich", "drei- bis viermal für 5–10 Minuten"),
      ("Querlüften", "gegenüberliegende Fenster gleichzeitig öffnen"),
      ("Heizung aus", "während des Lüftens die Thermostate herunterdrehen")],
     None,
     (["Raum", "Ideale Luftfeuchte"], [["Wohnzimmer", "40–60 %"], ["Schlafzimmer", "40–60 %"], ["Bad", "nach dem Duschen lüften"]]),
     [],
     ["Ein Hygrometer kostet wenig und zeigt, ob du genug lüftest."], "de"),
    # Vietnamese
    ("Cách học lập trình Python cho người mới",
     "Bắt đầu từ những điều cơ bản và luyện tập mỗi ngày.",
     [("Cài đặt", "tải Python từ trang chính thức và cài VS Code"),
      ("Học cú pháp", "biến, vòng lặp, hàm, danh sách"),
      ("Làm dự án nhỏ", "máy tính bỏ túi, trò chơi đoán số")],
     ("python", "so_bi_mat = 7\ndoan = int(input(\"Đoán một số: \"))\nif doan == so_bi_mat:\n    print(\"Chính xác!\")\nelse:\n    print(\"Sai rồi\")"),
     (["Tuần", "Nội dung"], [["1", "cú pháp cơ bản"], ["2", "hàm và module"], ["3", "dự án nhỏ"]]),
     [("Tài liệu Python", "https://docs.python.org/vi/3/tutorial/")],
     ["Mỗi ngày **30 phút** là đủ để tiến bộ.", "Đừng ngại đọc thông báo lỗi."], "vi"),
    ("Mẹo tiết kiệm tiền hàng tháng",
     "Theo dõi chi tiêu là bước đầu tiên.",
     [("Ghi chép", "ghi lại mọi khoản chi trong 30 ngày"),
      ("Đặt ngân sách", "chia thu nhập theo tỉ lệ 50/30/20"),
      ("Tự động hóa", "chuyển tiền tiết kiệm ngay khi nhận lương")],
     None,
     (["Khoản", "Tỉ lệ"], [["Nhu cầu", "50%"], ["Mong muốn", "30%"], ["Tiết kiệm", "20%"]]),
     [],
     ["Hủy các dịch vụ đăng ký không dùng đến."], "vi"),
    # Russian
    ("Как настроить cron",
     "Cron запускает команды по расписанию.",
     [("Откройте таблицу", "`crontab -e`"),
      ("Добавьте строку", "пять полей времени и команда"),
      ("Проверьте", "`crontab -l` покажет задания")],
     ("bash", "# каждый день в 3:30\n30 3 * * * /home/user/backup.sh >> /var/log/backup.log 2>&1"),
     (["Поле", "Значения"], [["минута", "0–59"], ["час", "0–23"], ["день месяца", "1–31"], ["месяц", "1–12"], ["день недели", "0–7"]]),
     [("crontab.guru", "https://crontab.guru")],
     ["Указывайте **полные пути** к программам.", "Перенаправляйте вывод в лог."], "ru"),
    # Japanese
    ("東京でおすすめのラーメン店の選び方",
     "スープの種類から選ぶと失敗しにくいです。",
     [("醤油", "あっさりした東京の定番"),
      ("豚骨", "濃厚でクリーミー"),
      ("味噌", "寒い日にぴったり")],
     None,
     (["種類", "特徴"], [["醤油", "あっさり"], ["豚骨", "濃厚"], ["塩", "すっきり"]]),
     [],
     ["人気店は**開店前**に並ぶのがおすすめです。", "券売機で先に食券を買いましょう。"], "ja"),
    # French
    ("Rédiger un e-mail professionnel",
     "Un bon e-mail est court, clair et poli.",
     [("Objet", "précis : « Demande de devis – projet X »"),
      ("Formule d'appel", "*Bonjour Madame Dupont,*"),
      ("Corps", "une idée par paragraphe"),
      ("Conclusion", "une action attendue et une formule de politesse")],
     None,
     (["Situation", "Formule"], [["Formel", "Je vous prie d'agréer…"], ["Courant", "Cordialement"]]),
     [],
     ["Relisez-vous avant d'envoyer.", "Évitez les pièces jointes trop lourdes."], "fr"),
    ("Emoji-friendly: plan a birthday party 🎉",
     "A fun party needs a theme, a plan and a backup for the weather ☀️🌧️.",
     [("Pick a theme 🎨", "space, pirates, or a favourite film"),
      ("Send invites ✉️", "two weeks ahead, with an RSVP date"),
      ("Plan food 🍰", "cake, snacks and something for allergies"),
      ("Games 🎲", "one active, one quiet, one for prizes")],
     None,
     (["When", "Task"], [["-2 weeks", "invites ✉️"], ["-3 days", "shopping 🛒"], ["Day of", "decorate 🎈"]]),
     [],
     ["Keep it to **2 hours** for young kids.", "Take photos 📸 before the cake is cut!"], "en"),
    ("Solve a quadratic equation",
     "For `ax² + bx + c = 0`, use the quadratic formula.",
     [("Compute the discriminant", "`D = b² − 4ac`"),
      ("Two real roots", "when `D > 0`: `x = (−b ± √D) / 2a`"),
      ("One root", "when `D = 0`"),
      ("Complex roots", "when `D < 0`")],
     ("python", "import cmath\n\ndef roots(a, b, c):\n    d = cmath.sqrt(b * b - 4 * a * c)\n    return (-b + d) / (2 * a), (-b - d) / (2 * a)\n\nprint(roots(1, -3, 2))  # ((2+0j), (1+0j))"),
     (["Equation", "Roots"], [["x² − 3x + 2 = 0", "1, 2"], ["x² + 2x + 1 = 0", "−1"], ["x² + 1 = 0", "±i"]]),
     [("Khan Academy: quadratic formula", "https://www.khanacademy.org/math/algebra/x2f8bb11595b61c86:quadratic-functions-equations")],
     ["Check your roots by substituting them back.", "Factor first if the numbers are small."], "en"),
]

CLOSINGS = [
    "Let me know if you'd like more detail on any step!",
    "Hope this helps — feel free to ask follow-up questions.",
    "If you run into an error, paste it here and I'll take a look.",
    "Good luck! 🚀",
    "",
    "Want me to tailor this to your setup?",
]
NOTES = ["Note", "Tip", "Important", "Warning", "Heads up"]


def bold(rng, s):
    return f"__{s}__" if rng.random() < 0.15 else f"**{s}**"


def italic(rng, s):
    return f"_{s}_" if rng.random() < 0.4 else f"*{s}*"


def bullet(rng):
    return rng.choice(["-", "-", "-", "*", "+"])


def table(head, rows, rng):
    sep = "|" + "|".join(rng.choice(["---", ":---", "---:", ":---:", "-----"]) for _ in head) + "|"
    lines = ["| " + " | ".join(head) + " |", sep]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def code(lang, text):
    return f"```{lang}\n{text}\n```"


def links(ls, rng):
    if not ls:
        return ""
    if len(ls) == 1:
        t, u = ls[0]
        return f"See [{t}]({u}) for more."
    b = bullet(rng)
    return "**Further reading:**\n\n" + "\n".join(f"{b} [{t}]({u})" for t, u in ls)


def howto(t, rng):
    title, intro, steps, cd, (head, rows), ls, tips, _ = t
    h = "#" * rng.choice([1, 2, 2, 3])
    out = [f"{h} {title}", intro]
    nested = rng.random() < 0.5
    items = []
    for k, (lead, text) in enumerate(steps, 1):
        item = f"{k}. {bold(rng, lead)}: {text}."
        if nested and k == 1 and cd:
            item += "\n   " + code(cd[0], cd[1]).replace("\n", "\n   ")
        elif nested and k == 2:
            b = bullet(rng)
            item += f"\n   {b} {italic(rng, 'optional')}: double-check before moving on\n   {b} see the table below"
        items.append(item)
    sep = "\n\n" if rng.random() < 0.3 else "\n"
    out.append(sep.join(items))
    if cd and not nested:
        out.append(code(cd[0], cd[1]))
    out.append(table(head, rows, rng))
    if tips:
        note = rng.choice(NOTES)
        out.append(f"> {bold(rng, note + ':')} {tips[0]}")
    out.append(links(ls, rng))
    out.append(rng.choice(CLOSINGS))
    return out


def short(t, rng):
    title, intro, steps, cd, _, ls, tips, _ = t
    lead, text = rng.choice(steps)
    out = [f"{intro} In short: {bold(rng, lead.lower())} — {text}."]
    if cd and rng.random() < 0.6:
        first = "\n".join(cd[1].split("\n")[:4])
        out.append(code(cd[0], first))
    b = bullet(rng)
    out.append("\n".join(f"{b} {tip}" for tip in tips))
    if ls:
        out.append(f"More: <{ls[0][1]}>")
    return out


def comparison(t, rng):
    title, intro, steps, cd, (head, rows), ls, tips, _ = t
    out = [f"## {title}: options compared", intro, table(head, rows, rng)]
    b = bullet(rng)
    out.append("**Pros and cons**\n\n" + "\n".join(
        f"{b} {italic(rng, lead)}\n  {b} {text}" for lead, text in steps[:3]))
    out.append("---")
    out.append(f"{bold(rng, 'Verdict:')} {tips[0]}")
    if ls:
        out.append(" · ".join(f"[{a}]({u})" for a, u in ls))
    return out


def troubleshoot(t, rng):
    title, intro, steps, cd, (head, rows), ls, tips, _ = t
    out = [f"### Troubleshooting: {title.lower()}", f"{intro} Work through these checks in order:"]
    items = []
    for k, (lead, text) in enumerate(steps, 1):
        items.append(f"{k}. {bold(rng, lead)}\n\n   {text[0].upper() + text[1:]}.")
    out.append("\n\n".join(items))
    if cd:
        out.append(f"Example:\n\n{code(cd[0], cd[1])}")
    out.append("#### Common causes\n\n" + table(head, rows, rng))
    out.append("\n".join(f"> {tip}" for tip in tips))
    out.append(rng.choice(CLOSINGS))
    return out


def explain(t, rng):
    title, intro, steps, cd, (head, rows), ls, tips, _ = t
    out = [f"# {title}", f"{bold(rng, 'Short answer:')} {intro}", "## How it works"]
    for lead, text in steps:
        out.append(f"### {lead}\n\n{text[0].upper() + text[1:]}. This is the part people {italic(rng, 'most often')} get wrong, so take it slowly.")
    if cd:
        out.append("## Example\n\n" + code(cd[0], cd[1]))
    out.append("## Summary\n\n" + table(head, rows, rng))
    b = bullet(rng)
    out.append("\n".join(f"{b} {tip}" for tip in tips))
    if ls:
        out.append("Sources: " + ", ".join(f"[{a}]({u})" for a, u in ls) + ".")
    return out


def checklist(t, rng):
    title, intro, steps, cd, _, ls, tips, _ = t
    out = [f"**Checklist — {title}**", intro]
    done = rng.randrange(len(steps))
    b = bullet(rng)
    items = []
    for k, (lead, text) in enumerate(steps):
        mark = "x" if k < done else " "
        items.append(f"{b} [{mark}] {lead}: {text}")
    out.append("\n".join(items))
    if tips:
        out.append(f"~~{tips[-1]}~~ — already covered above." if rng.random() < 0.3 else tips[-1])
    if cd and rng.random() < 0.5:
        out.append("    " + cd[1].split("\n")[0])
    out.append(rng.choice(CLOSINGS))
    return out


SHAPES = [howto, short, comparison, troubleshoot, explain, checklist]


def main():
    rng = random.Random(20260601)
    n = 0
    for t in TOPICS:
        for shape in SHAPES:
            parts = [p for p in shape(t, rng) if p]
            doc = "\n\n".join(parts) + ("\n" if rng.random() < 0.7 else "")
            print(json.dumps({"text": doc}, ensure_ascii=False))
            n += 1
    assert n >= 200, n


if __name__ == "__main__":
    main()
