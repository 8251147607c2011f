using UnityEngine;
using UnityEngine.AI;

namespace Fernhollow.Cinderglass.Enemies
{
    public enum EnemyState
    {
        Idle,
        Patrol,
        Chase,
        Attack,
        Flee,
        Staggered,
        Returning,
        Dead
    }

    /// <summary>
    /// State machine shared by every regular enemy (bosses use BossBrain and have no leash).
    /// Per-enemy numbers such as health, attack range, poise and whether it may flee come from
    /// enemies.csv through <see cref="EnemyDefinition"/>.
    /// </summary>
    [RequireComponent(typeof(NavMeshAgent))]
    public class EnemyBrain : MonoBehaviour
    {
        public const float AggroRadiusMeters = 9f;
        public const float LeashDistanceMeters = 18f;    // measured from the spawn point
        public const float LoseSightSeconds = 3.5f;
        public const float ThinkIntervalSeconds = 0.2f;  // brains do not think every frame
        public const float FleeHealthFraction = 0.2f;
        public const float StaggerSeconds = 1.2f;

        [SerializeField] private EnemyDefinition _definition;

        private NavMeshAgent _agent;
        private EnemyHealth _health;
        private Transform _target;
        private Vector3 _spawnPoint;
        private float _nextThinkAt;
        private float _lastSeenTargetAt;
        private float _staggerEndsAt;

        public EnemyState State { get; private set; } = EnemyState.Idle;
        public bool IsInCombat => State == EnemyState.Chase || State == EnemyState.Attack;

        private void Awake()
        {
            _agent = GetComponent<NavMeshAgent>();
            _health = GetComponent<EnemyHealth>();
            _spawnPoint = transform.position;
            _agent.speed = _definition.MoveSpeed;
        }

        private void Update()
        {
            if (Time.time < _nextThinkAt) return;
            _nextThinkAt = Time.time + ThinkIntervalSeconds;
            State = Think();
        }

        /// <summary>Called by EnemyHealth when accumulated hits exceed the enemy's poise.</summary>
        public void OnPoiseBroken()
        {
            State = EnemyState.Staggered;
            _staggerEndsAt = Time.time + StaggerSeconds;
            _agent.ResetPath();
        }

        private EnemyState Think()
        {
            if (_health.IsDead) return EnemyState.Dead;
            if (State == EnemyState.Staggered && Time.time < _staggerEndsAt) return EnemyState.Staggered;

            _target = PlayerLocator.Current;
            bool seesTarget = Perception.CanSee(transform, _target);
            if (seesTarget) _lastSeenTargetAt = Time.time;
            float fromSpawn = Vector3.Distance(transform.position, _spawnPoint);
            float toTarget = Vector3.Distance(transform.position, _target.position);

            switch (State)
            {
                case EnemyState.Idle:
                case EnemyState.Patrol:
                case EnemyState.Staggered:
                    if (seesTarget && toTarget <= AggroRadiusMeters) return EnemyState.Chase;
                    return Patrol();

                case EnemyState.Chase:
                case EnemyState.Attack:
                    if (_definition.CanFlee && _health.Fraction <= FleeHealthFraction) return Flee();
                    if (fromSpawn > LeashDistanceMeters || Time.time - _lastSeenTargetAt > LoseSightSeconds)
                    {
                        _health.ResetToFull();   // pulling an enemy out of its area must not pay off
                        _agent.SetDestination(_spawnPoint);
                        return EnemyState.Returning;
                    }
                    if (toTarget <= _definition.AttackRange) return Attack();
                    _agent.SetDestination(_target.position);
                    return EnemyState.Chase;

                case EnemyState.Flee:
                    return _health.Fraction > FleeHealthFraction ? EnemyState.Chase : Flee();

                case EnemyState.Returning:
                    return _agent.remainingDistance < 0.5f ? EnemyState.Idle : EnemyState.Returning;

                default:
                    return State;
            }
        }

        private EnemyState Patrol()
        {
            if (_definition.PatrolRoute == null) return EnemyState.Idle;
            if (!_agent.hasPath) _agent.SetDestination(_definition.PatrolRoute.Next(transform.position));
            return EnemyState.Patrol;
        }

        private EnemyState Attack()
        {
            _agent.ResetPath();
            GetComponent<EnemyAttack>().TryStart(_target, _definition.Damage);
            return EnemyState.Attack;
        }

        private EnemyState Flee()
        {
            Vector3 away = (transform.position - _target.position).normalized * 6f;
            _agent.SetDestination(transform.position + away);
            return EnemyState.Flee;
        }
    }
}
