%% Erlang twin of startup_rollback.mr: children start one at a time in
%% order; init_ignore keeps a Permanent spec Stopped and removes a Temporary
%% one; a child that fails its start-up (init_fail, an exit before
%% acknowledging, returning before acknowledging) makes the supervisor stop
%% the children already started in reverse order and answer
%% StartFailed(name, reason).
-module(startup_rollback).
-export([main/0, start_worker/2, worker/3]).

-import(morrow_obs, [say/1, reason/1, result/1, children/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id, Restart, Mode) ->
    #{id => Id, start => {?MODULE, start_worker, [atom_to_list(Id), Mode]},
      restart => Restart, shutdown => 1000, type => worker}.

start_worker(Name, Mode) -> proc_lib:start_link(?MODULE, worker, [Name, Mode, self()]).

worker(Name, Mode, Parent) ->
    process_flag(trap_exit, true),
    say(["start:", Name]),
    case Mode of
        ok -> proc_lib:init_ack(Parent, {ok, self()}), serve(Name);
        ignore -> proc_lib:init_ack(Parent, ignore);
        {fail, Reason} -> proc_lib:init_ack(Parent, {error, Reason}), exit(Reason);
        {exit, Reason} -> exit(Reason);
        return -> ok
    end.

serve(Name) ->
    receive
        {'EXIT', _, shutdown} -> say(["stop:", Name]), exit(shutdown);
        {'EXIT', _, _} -> serve(Name)
    end.

attempt(Third) ->
    Flags = #{strategy => one_for_one, intensity => 5, period => 60},
    morrow_obs:sup_start(Flags, [spec(a, permanent, ok), spec(b, transient, ok), Third,
                                 spec(d, permanent, ok)]).

observer() ->
    say("-- ignore"),
    Flags = #{strategy => one_for_one, intensity => 5, period => 60},
    {ok, Sup} = Started = morrow_obs:sup_start(Flags, [spec(a, permanent, ok), spec(i, permanent, ignore),
                                                       spec(t, temporary, ignore), spec(d, permanent, ok)]),
    say(["start ", result(Started)]),
    say(["children ", children(morrow_obs:which_children(Sup))]),
    say(["stop ", result(morrow_obs:stop(Sup))]),
    say("-- init_fail"),
    say(["start ", result(attempt(spec(c, permanent, {fail, {failure, "boom"}})))]),
    say("-- exit before init_ack"),
    say(["start ", result(attempt(spec(c, temporary, {exit, {fault, 4}})))]),
    say("-- return before init_ack"),
    say(["start ", result(attempt(spec(c, transient, return)))]),
    say("-- the first child fails"),
    say(["start ", result(morrow_obs:sup_start(Flags, [spec(c, permanent, {fail, shutdown}), spec(d, permanent, ok)]))]).
