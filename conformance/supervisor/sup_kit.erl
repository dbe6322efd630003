%% sup_kit: the children and the observer steps that the Erlang twins of the
%% supervisor scenarios share. It maps nothing (morrow_obs does that); it
%% only keeps the one worker every scenario supervises, and the steps their
%% observers repeat, in one place. The harness compiles it with every suite
%% (docs/conformance.md).
%%
%% The worker is the Erlang side of the Morrow scenarios' worker entry: it
%% traps exits, prints start:NAME before it acknowledges, and on the
%% supervisor's shutdown prints stop:NAME and exits with shutdown
%% (conformance/supervisor/README.md). A Mode picks how its start-up ends:
%%
%%   serve           Process.init_ack(), then serve (the default)
%%   registered      Process.register(name, self()) before init_ack, then serve
%%   hold            init_ack, then ignore every exit signal it can trap
%%   ignore          Process.init_ignore()
%%   {fail, R}       Process.init_fail(R)
%%   {exit, R}       Process.exit(R) before acknowledging
%%   return          return before acknowledging
-module(sup_kit).
-export([spec/1, spec/2, branch/3, start_worker/2, worker/3,
         crash/3, crashed/3, last_crash/3, start/2, show/1, report/2, stop/1]).

-import(morrow_obs, [say/1, reason/1, result/1, children/1]).

%% spec(Id, Opts) is Supervisor.worker(name, worker, policy) for the worker
%% below: Permanent, Graceful(1000), not significant, mode serve, unless
%% Opts (a map of supervisor child spec keys, plus mode) says otherwise.
spec(Id) -> spec(Id, #{}).

spec(Id, Opts) ->
    {Mode, Policy} = case maps:take(mode, Opts) of
                         error -> {serve, Opts};
                         Taken -> Taken
                     end,
    maps:merge(#{id => Id, start => {?MODULE, start_worker, [atom_to_list(Id), Mode]},
                 restart => permanent, shutdown => 1000, type => worker},
               Policy).

%% branch(Id, Flags, Specs) is Supervisor.branch with a Permanent policy.
branch(Id, Flags, Specs) ->
    #{id => Id, start => {supervisor, start_link, [morrow_obs, {Flags, Specs}]},
      restart => permanent, shutdown => infinity, type => supervisor}.

start_worker(Name, Mode) -> proc_lib:start_link(?MODULE, worker, [Name, Mode, self()]).

worker(Name, Mode, Parent) ->
    process_flag(trap_exit, true),
    say(["start:", Name]),
    case Mode of
        serve -> proc_lib:init_ack(Parent, {ok, self()}), serve(Name);
        registered ->
            ok = morrow_obs:register(Name, self()),
            proc_lib:init_ack(Parent, {ok, self()}),
            serve(Name);
        hold -> proc_lib:init_ack(Parent, {ok, self()}), hold();
        ignore -> proc_lib:init_ack(Parent, ignore);
        {fail, Reason} -> proc_lib:init_ack(Parent, {error, Reason}), exit(Reason);
        {exit, Reason} -> exit(Reason);
        return -> ok
    end.

%% serve waits for the supervisor's shutdown; {crash, R} makes it exit
%% with R (the scenarios' stand-in for a child that fails on its own).
serve(Name) ->
    receive
        {crash, Reason} -> exit(Reason);
        {'EXIT', _, shutdown} -> say(["stop:", Name]), exit(shutdown);
        {'EXIT', _, _} -> serve(Name)
    end.

hold() ->
    receive {'EXIT', _, _} -> hold() end.

%% crash(Sup, Id, Reason) makes child Id exit with Reason and returns what
%% Supervisor.current answers once the supervisor has handled that exit
%% (morrow_obs:settle/3).
crash(Sup, Id, Reason) ->
    {ok, Pid} = morrow_obs:current(Sup, Id),
    Pid ! {crash, Reason},
    morrow_obs:settle(Sup, Id, Pid).

%% crashed(Sup, Id, Reason) is crash/3 printed as "crash ID: RESULT".
crashed(Sup, Id, Reason) ->
    report(["crash ", atom_to_list(Id)], crash(Sup, Id, Reason)).

%% last_crash(Sup, Id, Reason) crashes a child whose exit makes the
%% supervisor give up, and prints the supervisor's Down.
last_crash(Sup, Id, Reason) ->
    Ref = erlang:monitor(process, Sup),
    {ok, Pid} = morrow_obs:current(Sup, Id),
    Pid ! {crash, Reason},
    receive {'DOWN', Ref, process, _, R} -> say(["supervisor down ", reason(R)]) end.

%% start(Flags, Specs) is Supervisor.start, printed as "start Ok"; it
%% returns the supervisor.
start(Flags, Specs) ->
    {ok, Sup} = Started = morrow_obs:sup_start(Flags, Specs),
    say(["start ", result(Started)]),
    Sup.

%% show(Sup) prints Supervisor.which_children.
show(Sup) -> say(["children ", children(morrow_obs:which_children(Sup))]).

%% report(Label, Result) prints "LABEL: RESULT".
report(Label, Result) -> say([Label, ": ", result(Result)]).

%% stop(Sup) is Supervisor.stop, printed, and the supervisor's Down.
stop(Sup) ->
    Ref = erlang:monitor(process, Sup),
    say(["stop ", result(morrow_obs:stop(Sup))]),
    receive {'DOWN', Ref, process, _, Reason} -> say(["supervisor down ", reason(Reason)]) end.
