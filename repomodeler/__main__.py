from repomodeler.cli import main

main()
