%% Erlang twin of demonitor_queued.mr (see that file for what is observed).
%% morrow_obs:monitor/1 returns once the noproc DOWN is queued, the state
%% Process.monitor leaves a Morrow process in.
-module(demonitor_queued).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1]).

main() -> morrow_obs:run(fun observer/0).

queued(Label, Ref) ->
    receive
        {'DOWN', Ref, process, _, Reason} -> say([Label, ": down ", reason(Reason)])
    after 0 -> say([Label, ": nothing queued"])
    end.

observer() ->
    W = spawn(fun morrow_obs:idle/0),
    First = morrow_obs:monitor(W),
    W ! go,
    morrow_obs:down("", First),
    Refs = [morrow_obs:monitor(W) || _ <- morrow_obs:demonitor_options()],
    morrow_obs:demonitor_each("queued", Refs),
    [queued([Nth, " monitor"], R) || {Nth, R} <- lists:zip(["first", "second", "third", "fourth"], Refs)],
    morrow_obs:drain().
