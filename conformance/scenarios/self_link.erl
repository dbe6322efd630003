%% Erlang twin of self_link.mr (see that file for what is observed).
-module(self_link).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

report(To, What, true) -> To ! {text, [What, " ok"]}.

self_linker(To) ->
    Me = self(),
    Was = process_flag(trap_exit, true),
    To ! {text, ["trap_exit was ", bool(Was)]},
    report(To, "link self", link(Me)),
    report(To, "link self again", link(Me)),
    report(To, "unlink self", unlink(Me)),
    report(To, "link self once more", link(Me)),
    receive
        {'EXIT', _, Reason} -> To ! {text, ["unexpected exit ", reason(Reason)]}
    after 0 -> To ! {text, "no exit event"}
    end,
    Before = process_flag(trap_exit, false),
    To ! {text, ["trap_exit was ", bool(Before)]},
    exit({failure, "self-linked"}).

relay() ->
    receive {text, Text} -> say(["linker: ", Text]) end.

observer() ->
    Own = self(),
    {_, R} = spawn_monitor(fun() -> self_linker(Own) end),
    relay(),
    relay(),
    relay(),
    relay(),
    relay(),
    relay(),
    relay(),
    morrow_obs:down("linker: ", R),
    morrow_obs:drain().
