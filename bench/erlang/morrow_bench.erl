%% morrow_bench: the BEAM side of Morrow's benchmark suite (bench/).
%%
%% Each workload does the same work as bench/morrow/<name>.mr and prints
%% one line
%%
%%     morrow-bench <name> size=<N> micros=<elapsed> check=<value> [bytes_per_process=<B>]
%%
%% timed inside the VM with erlang:monotonic_time/1, from before the first
%% process is spawned until the result is known, so VM start-up and
%% shutdown are excluded. The benchtable driver turns the elapsed time into
%% the workload's figure and verifies the check value.
%%
%% Usage: erl -noshell +S 1:1 -pa DIR -run morrow_bench main pingpong 1000000 -s init stop
-module(morrow_bench).
%% init/1 is the callback of two behaviours here: the gen_server of the
%% call workload (init([])) and the supervisor of supervisor-restart
%% (init({sr_sup, Obs})); one module cannot declare both -behaviour
%% attributes without a callback conflict, so neither is declared.
-export([main/1]).
-export([init/1, handle_call/3, handle_cast/2]).
-export([sr_worker_start/1, sr_worker/1]).

main([Name, SizeText]) ->
    Size = list_to_integer(SizeText),
    {Micros, Check, Extra} = run(list_to_atom(Name), Size),
    io:format("morrow-bench ~s size=~b micros=~b check=~s~s~n",
              [Name, Size, Micros, Check, Extra]).

timed(Fun) ->
    T0 = erlang:monotonic_time(microsecond),
    Check = Fun(),
    T1 = erlang:monotonic_time(microsecond),
    {T1 - T0, Check, ""}.

run(pingpong, N) -> timed(fun() -> pingpong(N) end);
run(ring, N) -> timed(fun() -> ring(1000, N) end);
run(counting, N) -> timed(fun() -> counting(N) end);
run(request_reply, N) -> timed(fun() -> request_reply(32, N) end);
run(call, N) -> timed(fun() -> call(32, N) end);
run(spawn, N) -> timed(fun() -> spawn_many(N) end);
run(lifecycle, N) -> timed(fun() -> lifecycle(N) end);
run(supervisor_restart, N) -> timed(fun() -> supervisor_restart(N) end);
run(fib, N) -> timed(fun() -> fib_in_process(N) end);
run(skynet, N) -> timed(fun() -> skynet(N) end);
run(maps, N) -> timed(fun() -> maps_workload(N) end);
run(map_send, N) -> timed(fun() -> map_send(N) end);
run(list_send, N) -> timed(fun() -> list_send(N) end);
run(idle, N) -> idle(N).

%% ping-pong: two processes, N round trips (2N messages).
pingpong(N) ->
    Main = self(),
    Pong = spawn(fun pong/0),
    spawn(fun() -> Main ! {done, ping(Pong, N, 0)}, Pong ! quit end),
    receive {done, Last} -> integer_to_list(Last) end.

ping(_Pong, 0, Last) -> Last;
ping(Pong, K, Last) ->
    Pong ! {ping, self(), Last},
    receive Next -> ping(Pong, K - 1, Next) end.

pong() ->
    receive
        {ping, From, N} -> From ! N + 1, pong();
        quit -> ok
    end.

%% ring: Procs processes in a ring; a token makes Hops hops, then a stop
%% message goes round once so that every process exits. The token counts
%% the hops made ({hop, Left, Made}) and the stop message carries the count
%% round to the leader: the check value equals Hops only if every hop
%% happened.
ring(Procs, Hops) ->
    Main = self(),
    spawn(fun() -> ring_leader(Main, Procs, Hops) end),
    receive {done, Made} -> integer_to_list(Made) end.

ring_leader(Main, Procs, Hops) ->
    Next = ring_build(Procs - 1, self()),
    Next ! {hop, Hops - 1, 1},
    ring_lead(Main, Next).

ring_build(0, Next) -> Next;
ring_build(K, Next) -> ring_build(K - 1, spawn(fun() -> ring_relay(Next) end)).

ring_relay(Next) ->
    receive
        {hop, 0, Made} -> Next ! {stop, Made}, ring_stopping();
        {hop, Left, Made} -> Next ! {hop, Left - 1, Made + 1}, ring_relay(Next);
        {stop, Made} -> Next ! {stop, Made}
    end.

ring_stopping() ->
    receive {stop, _} -> ok end.

ring_lead(Main, Next) ->
    receive
        {hop, 0, Made} -> Next ! {stop, Made}, receive {stop, M} -> Main ! {done, M} end;
        {hop, Left, Made} -> Next ! {hop, Left - 1, Made + 1}, ring_lead(Main, Next);
        {stop, Made} -> Next ! {stop, Made}, Main ! {done, Made}
    end.

%% counting: N increments to one counter in batches of 1000, each batch
%% followed by a sync that the counter answers with its count (Morrow
%% mailboxes hold at most 4,096 messages, so both sides pace the sender).
counting(N) ->
    Main = self(),
    Counter = spawn(fun() -> counter(0) end),
    spawn(fun() -> Main ! {done, count_batches(Counter, N div 1000, 0)} end),
    receive {done, Count} -> Counter ! stop, integer_to_list(Count) end.

counter(C) ->
    receive
        inc -> counter(C + 1);
        {sync, From} -> From ! C, counter(C);
        stop -> ok
    end.

count_batches(_Counter, 0, Last) -> Last;
count_batches(Counter, K, _Last) ->
    count_send(Counter, 1000),
    Counter ! {sync, self()},
    receive C -> count_batches(Counter, K - 1, C) end.

count_send(_Counter, 0) -> ok;
count_send(Counter, K) -> Counter ! inc, count_send(Counter, K - 1).

%% request-reply: Clients clients, each making N calls to one server.
request_reply(Clients, N) ->
    Main = self(),
    Server = spawn(fun server/0),
    Collector = spawn(fun() -> Main ! {done, rr_collect(Clients, 0)} end),
    [spawn(fun() -> Collector ! {client, rr_client(Server, N, 0)} end)
     || _ <- lists:seq(1, Clients)],
    receive {done, Sum} -> Server ! stop, integer_to_list(Sum) end.

server() ->
    receive
        {req, From, X} -> From ! X + 1, server();
        stop -> ok
    end.

rr_client(_Server, 0, Replies) -> Replies;
rr_client(Server, K, Replies) ->
    Server ! {req, self(), K},
    receive R when R =:= K + 1 -> rr_client(Server, K - 1, Replies + 1) end.

rr_collect(0, Sum) -> Sum;
rr_collect(K, Sum) -> receive {client, R} -> rr_collect(K - 1, Sum + R) end.

%% call: Clients clients each make N gen_server:call requests to one
%% gen_server (bench/morrow/call.mr uses Process.call); a collector adds
%% up the clients' reply counts.
call(Clients, N) ->
    Main = self(),
    {ok, Server} = gen_server:start(?MODULE, [], []),
    Collector = spawn(fun() -> Main ! {done, rr_collect(Clients, 0)} end),
    [spawn(fun() -> Collector ! {client, call_client(Server, N, 0)} end)
     || _ <- lists:seq(1, Clients)],
    receive {done, Sum} -> gen_server:stop(Server), integer_to_list(Sum) end.

call_client(_Server, 0, Replies) -> Replies;
call_client(Server, K, Replies) ->
    R = gen_server:call(Server, {req, K}, infinity),
    R = K + 1,
    call_client(Server, K - 1, Replies + 1).

init([]) -> {ok, nostate};
init({sr_sup, Obs}) ->
    {ok, {#{strategy => one_for_one, intensity => 1000, period => 86400},
          [#{id => w, start => {?MODULE, sr_worker_start, [Obs]},
             restart => permanent, shutdown => brutal_kill}]}}.

handle_call({req, X}, _From, S) -> {reply, X + 1, S}.

handle_cast(_, S) -> {noreply, S}.

%% spawn: N processes that each send one message and exit, spawned in
%% batches of 1000 whose messages are collected before the next batch.
spawn_many(N) ->
    Main = self(),
    spawn(fun() -> Main ! {done, spawn_batches(N div 1000, 0)} end),
    receive {done, Count} -> integer_to_list(Count) end.

spawn_batches(0, Count) -> Count;
spawn_batches(K, Count) ->
    Me = self(),
    spawn_batch(Me, 1000),
    spawn_batches(K - 1, Count + spawn_collect(1000, 0)).

spawn_batch(_Me, 0) -> ok;
spawn_batch(Me, K) -> spawn(fun() -> Me ! one end), spawn_batch(Me, K - 1).

spawn_collect(0, Got) -> Got;
spawn_collect(K, Got) -> receive one -> spawn_collect(K - 1, Got + 1) end.

%% lifecycle: N workers started with spawn_monitor in batches of 200; every
%% second one fails (exit with a fault reason, which, like a Morrow isolated
%% fault, logs nothing), and all Downs are collected.
lifecycle(N) ->
    Main = self(),
    spawn(fun() -> Main ! {done, life_batches(N div 200, 0, 0)} end),
    receive {done, {Normal, Faulted}} ->
        "normal:" ++ integer_to_list(Normal) ++ ",fault:" ++ integer_to_list(Faulted)
    end.

life_batches(0, Normal, Faulted) -> {Normal, Faulted};
life_batches(K, Normal, Faulted) ->
    life_spawn(200),
    {N2, F2} = life_collect(200, Normal, Faulted),
    life_batches(K - 1, N2, F2).

life_spawn(0) -> ok;
life_spawn(K) ->
    case K rem 2 of
        0 -> spawn_monitor(fun() -> ok end);
        1 -> spawn_monitor(fun() -> exit({fault, 4}) end)
    end,
    life_spawn(K - 1).

life_collect(0, Normal, Faulted) -> {Normal, Faulted};
life_collect(K, Normal, Faulted) ->
    receive
        {'DOWN', _, process, _, normal} -> life_collect(K - 1, Normal + 1, Faulted);
        {'DOWN', _, process, _, {fault, _}} -> life_collect(K - 1, Normal, Faulted + 1)
    end.

%% fib: body-recursive fib(N) inside one process.
fib_in_process(N) ->
    Main = self(),
    spawn(fun() -> Main ! {done, fib(N)} end),
    receive {done, F} -> integer_to_list(F) end.

fib(N) when N < 2 -> N;
fib(N) -> fib(N - 1) + fib(N - 2).

%% skynet: a tree of processes, fan-out 10, with N leaves numbered 0..N-1;
%% every process reports the sum of its subtree to its parent.
skynet(N) ->
    Main = self(),
    spawn(fun() -> skynet_node(Main, 0, N) end),
    receive {sum, S} -> integer_to_list(S) end.

skynet_node(Parent, Num, 1) -> Parent ! {sum, Num};
skynet_node(Parent, Num, Size) ->
    Me = self(),
    Sub = Size div 10,
    [spawn(fun() -> skynet_node(Me, Num + I * Sub, Sub) end) || I <- lists:seq(0, 9)],
    Parent ! {sum, skynet_collect(10, 0)}.

skynet_collect(0, Sum) -> Sum;
skynet_collect(K, Sum) -> receive {sum, S} -> skynet_collect(K - 1, Sum + S) end.

%% idle: bytes per process of N processes parked in receive, from the
%% growth of erlang:memory(processes). As in idle.mr, processes are started
%% in batches of 1000, each acknowledges before it parks, and each knows
%% the one started before it, so a stop sent to the last one walks back
%% through all of them. The elapsed time reported is the start-up time.
idle(N) ->
    Main = self(),
    erlang:garbage_collect(),
    Before = erlang:memory(processes),
    T0 = erlang:monotonic_time(microsecond),
    Coordinator = spawn(fun() -> idle_coordinator(Main, N) end),
    receive {parked, T1} -> ok end,
    erlang:garbage_collect(),
    After = erlang:memory(processes),
    Coordinator ! release,
    receive {released, Count} -> ok end,
    {T1 - T0, integer_to_list(Count),
     io_lib:format(" bytes_per_process=~.1f", [(After - Before) / N])}.

idle_coordinator(Main, N) ->
    Last = idle_batches(N div 1000, none),
    erlang:garbage_collect(),
    Main ! {parked, erlang:monotonic_time(microsecond)},
    receive release -> ok end,
    case Last of
        none -> ok;
        P -> P ! stop
    end,
    Main ! {released, N}.

idle_batches(0, Last) -> Last;
idle_batches(K, Last) ->
    Next = idle_start(self(), 1000, Last),
    idle_ready(1000),
    idle_batches(K - 1, Next).

idle_start(_Me, 0, Prev) -> Prev;
idle_start(Me, K, Prev) ->
    P = spawn(fun() -> idle_parked(Me, Prev) end),
    idle_start(Me, K - 1, P).

idle_parked(Parent, Prev) ->
    Parent ! ready,
    receive
        stop ->
            case Prev of
                none -> ok;
                P -> P ! stop
            end
    end.

idle_ready(0) -> ok;
idle_ready(K) -> receive ready -> idle_ready(K - 1) end.

%% supervisor-restart: a one_for_one supervisor restarts a child that
%% crashes right after proc_lib:init_ack, N times in all, split over
%% supervisors of 1,000 restarts each (intensity 1000, period 86400, as the
%% Morrow side, whose intensity is at most 1,024): each gives up at the
%% 1,001st crash. Every generation tells the observer it started. OTP's
%% crash and supervisor reports are silenced (the logger's level).
supervisor_restart(N) ->
    logger:set_primary_config(level, none),
    Main = self(),
    spawn(fun() -> Main ! {done, sr_rounds(N div 1000, 0)} end),
    receive {done, Restarts} -> integer_to_list(Restarts) end.

sr_rounds(0, Restarts) -> Restarts;
sr_rounds(K, Restarts) ->
    {ok, Sup} = supervisor:start_link(?MODULE, {sr_sup, self()}),
    unlink(Sup),
    Ref = monitor(process, Sup),
    Starts = sr_collect(Ref, 0),
    sr_rounds(K - 1, Restarts + Starts - 1).

sr_collect(Ref, Starts) ->
    receive
        started -> sr_collect(Ref, Starts + 1);
        {'DOWN', Ref, process, _, _} -> Starts
    end.

sr_worker_start(Obs) -> proc_lib:start_link(?MODULE, sr_worker, [Obs]).

sr_worker(Obs) ->
    proc_lib:init_ack({ok, self()}),
    Obs ! started,
    exit({fault, 1}).

%% maps: one process, N puts of Int keys, 5N gets, N/2 deletes (the even
%% keys) and a fold over what is left, as bench/morrow/maps.mr.
maps_workload(N) ->
    Main = self(),
    spawn(fun() -> Main ! {done, maps_run(N)} end),
    receive {done, C} -> integer_to_list(C) end.

maps_run(N) ->
    M = maps_puts(#{}, 0, N),
    Got = maps_gets(M, 0, 5 * N, N, 0),
    Left = maps_deletes(M, 0, N),
    Folded = maps:fold(fun(_K, V, Acc) -> Acc + V end, 0, Left),
    Got + Folded.

maps_puts(M, N, N) -> M;
maps_puts(M, I, N) -> maps_puts(maps:put(I, 2 * I, M), I + 1, N).

maps_gets(_M, T, T, _N, Acc) -> Acc;
maps_gets(M, J, T, N, Acc) -> maps_gets(M, J + 1, T, N, Acc + maps:get(J rem N, M, 0)).

maps_deletes(M, I, N) when I >= N -> M;
maps_deletes(M, I, N) -> maps_deletes(maps:remove(I, M), I + 2, N).

%% map_send: two processes pass a 10,000-entry map back and forth N
%% times (2N messages); the sender sums the sizes it gets back.
%% list_send does the same with a 10,000-element list.
map_send(N) ->
    M = maps_puts_same(#{}, 0),
    send_twin(M, N, fun maps:size/1).

list_send(N) ->
    send_twin(lists:seq(0, 9999), N, fun erlang:length/1).

maps_puts_same(M, 10000) -> M;
maps_puts_same(M, I) -> maps_puts_same(maps:put(I, I, M), I + 1).

send_twin(X, N, Len) ->
    Main = self(),
    Echo = spawn(fun send_echo/0),
    spawn(fun() -> Main ! {done, send_loop(Echo, X, N, 0, Len)}, Echo ! quit end),
    receive {done, T} -> integer_to_list(T) end.

send_echo() ->
    receive
        {carry, From, X} -> From ! {back, X}, send_echo();
        quit -> ok
    end.

send_loop(_Echo, _X, 0, Total, _Len) -> Total;
send_loop(Echo, X, K, Total, Len) ->
    Echo ! {carry, self(), X},
    receive {back, Y} -> send_loop(Echo, Y, K - 1, Total + Len(Y), Len) end.
