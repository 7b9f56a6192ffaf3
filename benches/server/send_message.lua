-- wrk request of benches/server/load.sh: one sendMessage with markdown to parse
wrk.method = "POST"
wrk.path = "/bot1:a/sendMessage"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"chat_id":1,"text":"**Hello** _world_, see [the docs](https://example.com) {red}now{/red}","parse_mode":"markdown"}'
