using System;
using System.Collections.Generic;
using System.IO;
using UnityEngine;

namespace Fernhollow.Cinderglass.Achievements
{
    [Serializable]
    public class AchievementDef
    {
        public string id;
        public string name_key;
        public string stat;
        public int threshold;
        public bool hidden;
        public string added_in;
    }

    public interface IPlatformAchievements
    {
        bool IsOnline { get; }
        void Unlock(string id);
    }

    /// <summary>
    /// Tracks progress towards the achievements in achievements.json and unlocks them on the
    /// platform (PC store or Lumen). Unlocks made while offline are queued and sent on the next sync.
    /// </summary>
    public class AchievementTracker
    {
        public const string RelativePath = "Data/achievements.json";

        private readonly IPlatformAchievements _platform;
        private readonly Dictionary<string, AchievementDef> _defs = new Dictionary<string, AchievementDef>();
        private readonly HashSet<string> _unlocked = new HashSet<string>();
        private readonly Queue<string> _pending = new Queue<string>();

        public AchievementTracker(IPlatformAchievements platform)
        {
            _platform = platform;
            string path = Path.Combine(Application.streamingAssetsPath, RelativePath);
            var file = JsonUtility.FromJson<AchievementFile>(File.ReadAllText(path));
            foreach (AchievementDef def in file.achievements) _defs[def.id] = def;
        }

        /// <summary>Reports the current value of a stat; unlocks every achievement whose threshold it reaches.</summary>
        public void ReportStat(string stat, int value)
        {
            foreach (AchievementDef def in _defs.Values)
            {
                if (def.stat == stat && value >= def.threshold) TryUnlock(def.id);
            }
        }

        public bool TryUnlock(string id)
        {
#if CG_CHEATS
            // Development builds carry the debug menu. Lumen requirement LTR-047: no achievement may
            // unlock while debug or cheat features can be reached, so these builds never unlock anything.
            return false;
#else
            if (!_defs.ContainsKey(id) || !_unlocked.Add(id)) return false;
            _pending.Enqueue(id);
            Sync();
            return true;
#endif
        }

        public void Sync()
        {
            while (_pending.Count > 0 && _platform.IsOnline)
            {
                _platform.Unlock(_pending.Dequeue());
            }
        }

        [Serializable]
        private class AchievementFile
        {
            public List<AchievementDef> achievements;
        }
    }
}
